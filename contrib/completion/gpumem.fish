# SPDX-License-Identifier: ISC
# fish completion for gpumem.  As in the bash completion, every list comes
# from the installed programs: verbs from `gpumem --help`, options from
# `gpumem-VERB --help`, scenarios from `gpumem-synth --list`.  Installed by
# `make install` as $(DATADIR)/fish/vendor_completions.d/gpumem.fish.

function __gpumem_verbs
	gpumem --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)/\1\t\2/p'
end

# The verb on the command line, if any.
function __gpumem_verb
	set -l words (commandline -opc)
	for w in $words[2..-1]
		switch $w
		case '-*' help
		case '*'
			echo $w
			return 0
		end
	end
	return 1
end

function __gpumem_opts
	set -l verb (__gpumem_verb)
	or return
	gpumem-$verb --help 2>/dev/null |
	    grep -o -- '\(^\|[[ ,]\)--\?[a-zA-Z][-a-zA-Z0-9]*' |
	    sed 's/^[[ ,]//' |
	    grep -E '^(--[a-zA-Z][-a-zA-Z0-9]*|-[a-zA-Z])$' | sort -u
end

complete -c gpumem -n 'not __gpumem_verb' -f -a '(__gpumem_verbs) help'
complete -c gpumem -n '__gpumem_verb; and string match -q -- "-*" (commandline -ct)' -f -a '(__gpumem_opts)'
complete -c gpumem -n '__fish_seen_subcommand_from synth; and __fish_prev_arg_in -s --scenario' -f -a '(gpumem-synth --list 2>/dev/null | cut -d " " -f 1)'
