# fish completion for byoc. The candidates come from the binary itself
# (`byoc __complete WORDS...`); nothing printed means file names.
function __byoc_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd $words[1]
    set -e words[1]
    set -l out (command $cmd __complete $words "$cur" 2>/dev/null)
    if test (count $out) -gt 0
        printf '%s\n' $out
    else
        __fish_complete_path "$cur"
    end
end
complete -c byoc -f -a '(__byoc_complete)'
