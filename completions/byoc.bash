# bash completion for byoc. The candidates come from the binary itself
# (`byoc __complete WORDS...`), so they follow its verbs and flags.
_byoc()
{
    local cur words cword
    if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur words cword
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
    fi
    local IFS=$'\n'
    COMPREPLY=($(command "${words[0]}" __complete "${words[@]:1:cword}" 2>/dev/null))
    if declare -F __ltrim_colon_completions >/dev/null; then
        __ltrim_colon_completions "$cur"
    fi
}
complete -o default -F _byoc byoc
