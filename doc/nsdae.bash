# bash completion for nsdae: commands, each command's options (the ones its --help lists; checked
# by the ctest test cli_test_docs), the values of --example, --scheme, --format and --reference,
# and file names elsewhere. Installed as share/bash-completion/completions/nsdae.

_nsdae()
{
    local cur prev cmd
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    local commands="simulate converge crosscheck check analyze restart plot compare examples help"
    local examples="rocca-crossing rocca-repulsive relay-decay bouncing-ball beads cup-and-ball"

    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    cmd="${COMP_WORDS[1]}"

    case "$prev" in
        --example) COMPREPLY=($(compgen -W "$examples" -- "$cur")); return ;;
        --scheme) COMPREPLY=($(compgen -W "minnorm euler theta moreau" -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "csv hdf5" -- "$cur")); return ;;
        --engine) COMPREPLY=($(compgen -W "mlcs-stepper events" -- "$cur")); return ;;
        --reference) COMPREPLY=($(compgen -W "exact finest events" -- "$cur")); return ;;
        --plot | --out | --csv | --sidecar | --events) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --stop | --step | --steps | --theta | --gamma | --param | --every | --vars | --phase | --title | \
            --cols | --tol | --rtol | --atol | --mode | --at | --from | --to | --height) return ;;
    esac

    local run="--example --stop --scheme --theta --gamma --gamma-relation --param --select-all"
    local opts
    case "$cmd" in
        simulate) opts="$run --step --steps --no-count --out --format --sidecar --no-sidecar --every --plot --vars --phase --engine --rtol --atol --events --help" ;;
        converge) opts="$run --steps --reference --rtol --atol --plot --csv --help" ;;
        crosscheck) opts="$run --steps --rtol --atol --plot --csv --json --help" ;;
        check) opts="--example --param --json --verbose --help" ;;
        analyze) opts="--example --param --mode --json --strict --help" ;;
        restart) opts="--example --param --at --from --to --height --mode --json --help" ;;
        plot) opts="--vars --phase --out --title --help" ;;
        compare) opts="--cols --tol --rtol --help" ;;
        examples) COMPREPLY=($(compgen -W "$examples --help" -- "$cur")); return ;;
        help) COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
        *) return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _nsdae nsdae
