# A pmon whose first header pair lacks fb and a later one has it (seen in
# a real quote): rows under the first are counted, the rest read.  A pmon
# with no fb at all is refused.
cat > two.log <<'LOG'
# gpu        pid  type    sm   mem   enc   dec   command
# Idx          #   C/G     %     %     %     %   name
    0     447153     C     -     -     -     -   python3.9      
# gpu        pid  type    fb    sm   mem   enc   dec   command
# Idx          #   C/G    MB     %     %     %     %   name
    0     447153     C  7669     -     -     -     -   python3.9      
LOG
gpumem-read --start 2023-05-01T00:00:00Z two.log
cat > u.log <<'LOG'
# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command 
# Idx           #    C/G      %      %      %      %      %      %    name 
    0      10309     C     99      7      -      -      -      -    gpu_burn       
LOG
rc=0; gpumem-read --start 2023-05-01T00:00:00Z u.log || rc=$?; echo "exit $rc"
