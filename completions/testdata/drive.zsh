# zsh -f drive.zsh SHELL LINE CASES...
#
# Starts SHELL (bash, zsh or fish) interactively on a pseudo-terminal,
# loads connectscope's completion script into it, and for each case
# directory (holding `candidates`, what the stand-in connectscope offers)
# types LINE, presses Tab, then Enter: the shell completes as a person's
# would and runs the line, and the stand-in records the arguments it got
# ($CASES/args, moved into the case's directory). Nothing here judges; the
# Go test reads the files.
zmodload zsh/zpty || exit 2
sh=$1 line=$2
shift 2
case $sh in
bash) zpty -b s bash --norc --noprofile -i
      zpty -w s 'PS1="$ "; source <(connectscope completion bash)' ;;
zsh)  zpty -b s zsh -f -i
      zpty -w s 'PS1="$ "; autoload -U compinit; compinit -u; source <(connectscope completion zsh)' ;;
fish) zpty -b s fish --no-config -i
      zpty -w s 'connectscope completion fish | source' ;;
*)    exit 2 ;;
esac
# The shell is ready once it has run a command typed after the script.
zpty -w s "connectscope ready"
for i in {1..200}; do [[ -e $CASES/args ]] && break; sleep 0.05; done
rm -f $CASES/args
for c in "$@"; do
    cp $c/candidates $CASES/current
    zpty -w -n s "$line"$'\t'
    sleep 0.05
    zpty -w -n s $'\r'
    for i in {1..100}; do [[ -e $CASES/args ]] && break; sleep 0.05; done
    [[ -e $CASES/args ]] && mv $CASES/args $c/args
done
zpty -w s 'exit'
sleep 0.2
zpty -d s
