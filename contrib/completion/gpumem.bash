# SPDX-License-Identifier: ISC
# bash completion for gpumem and its gpumem-VERB programs.
#
# Nothing is listed here twice: the verbs come from `gpumem --help`, each
# verb's options from `gpumem-VERB --help`, the scenarios from
# `gpumem-synth --list` and the formats from `gpumem-read --help`, so the
# completion follows the installed programs.  Installed by `make install`
# as $(DATADIR)/bash-completion/completions/gpumem.

# The verbs: the lines "  VERB   what it does" of gpumem --help.
_gpumem_verbs()
{
	gpumem --help 2>/dev/null |
	    sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'
}

# The options of gpumem-VERB, long and short, as its --help names them.
_gpumem_opts()
{
	"gpumem-$1" --help 2>/dev/null |
	    grep -o -- '\(^\|[[ ,]\)--\?[a-zA-Z][-a-zA-Z0-9]*' |
	    sed 's/^[[ ,]//' | grep -E '^(--[a-zA-Z][-a-zA-Z0-9]*|-[a-zA-Z])$' |
	    sort -u
}

# The formats gpumem read knows: the list after "--format NAME" in its help.
_gpumem_formats()
{
	gpumem-read --help 2>/dev/null |
	    sed -n '/^ *--format NAME/,/^  -/p' | sed '1d;$d' |
	    tr ',' '\n' | sed 's/[ .]//g' | grep '^[a-z][a-z-]*$'
}

_gpumem_complete_verb()
{
	local verb=$1 cur=$2 prev=$3
	local IFS=$'\n'	# one word per line: file names may hold spaces

	case $prev in
	-s|--scenario)
		if [ "$verb" = synth ]; then
			COMPREPLY=($(compgen -W "$(gpumem-synth --list 2>/dev/null |
			    cut -d ' ' -f 1)" -- "$cur"))
			return
		fi
		;;
	--format)
		COMPREPLY=($(compgen -W "$(_gpumem_formats)" -- "$cur"))
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_gpumem_opts "$verb")" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	compopt -o filenames 2>/dev/null
}

_gpumem()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local prog=${COMP_WORDS[0]##*/} verb i

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}
	case $prog in
	gpumem-*)
		_gpumem_complete_verb "${prog#gpumem-}" "$cur" "$prev"
		return
		;;
	esac
	# gpumem [help] VERB ARGS: the first word that is no option is the verb.
	verb=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		help) ;;
		*) verb=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$verb" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_gpumem_verbs) help" -- "$cur"))
		fi
		return
	fi
	[ "$prev" = help ] && return
	_gpumem_complete_verb "$verb" "$cur" "$prev"
}

# gpumem and each gpumem-VERB it lists (bash-completion finds this file
# under each program's name: make install links them).
complete -F _gpumem gpumem $(_gpumem_verbs | sed 's/^/gpumem-/')
