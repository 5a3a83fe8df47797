#compdef connectscope
# zsh completion for connectscope.
# Install: connectscope completion zsh > "${fpath[1]}/_connectscope"
# or add `source <(connectscope completion zsh)` to ~/.zshrc (after compinit).
#
# connectscope lists what can follow the words typed so far when it is run
# with the hidden --generate-bash-completion flag.
_connectscope() {
    local cur="${words[CURRENT]}"
    local -a typed candidates
    typed=("${(@)words[2,CURRENT-1]}")
    if [[ "$cur" == -* ]]; then
        candidates=("${(@f)$(${words[1]} "${typed[@]}" "$cur" --generate-bash-completion 2>/dev/null)}")
    else
        candidates=("${(@f)$(${words[1]} "${typed[@]}" --generate-bash-completion 2>/dev/null)}")
    fi
    candidates=("${(@)candidates:#}")
    if (( ${#candidates} )); then
        compadd -- "${candidates[@]}"
    else
        _files
    fi
}
if [[ "${funcstack[1]}" == "_connectscope" ]]; then
    _connectscope "$@"
else
    compdef _connectscope connectscope
fi
