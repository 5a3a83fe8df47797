# bash completion for connectscope.
# Install: connectscope completion bash > /etc/bash_completion.d/connectscope
# or add `source <(connectscope completion bash)` to ~/.bashrc.
#
# connectscope itself lists what can follow the words typed so far when it
# is run with the hidden --generate-bash-completion flag.
_connectscope_complete() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    local -a typed=("${COMP_WORDS[@]:1:COMP_CWORD-1}")
    local candidates
    if [[ "$cur" == -* ]]; then
        candidates=$("${COMP_WORDS[0]}" "${typed[@]}" "$cur" --generate-bash-completion 2>/dev/null)
    else
        candidates=$("${COMP_WORDS[0]}" "${typed[@]}" --generate-bash-completion 2>/dev/null)
    fi
    COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
# -o default falls back to file names (for --from, --worker-config).
complete -o bashdefault -o default -F _connectscope_complete connectscope
