# cmake/man.cmake - run at build time (cmake -P): the man pages and the
# bash completion, written by the built command from its option tables.
#   -DTOKIO=<the built tokio>  -DDIR=<folder of man/man1 and
#   bash-completion/completions>
# The commands are those `tokio help` lists; pages of commands no longer
# listed are removed with the old folder.
function(tokio_write out)
    execute_process(COMMAND ${TOKIO} ${ARGN} OUTPUT_FILE ${out}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "tokio ${ARGN}: exit ${rc}: ${err}")
    endif()
endfunction()

execute_process(COMMAND ${TOKIO} help OUTPUT_VARIABLE overview
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "tokio help: exit ${rc}")
endif()
string(REGEX REPLACE ".*\ncommands:\n" "" overview "${overview}")
string(REGEX REPLACE "\n\n.*" "" overview "${overview}")
string(REGEX MATCHALL "(^|\n)  [a-z0-9-]+" names "${overview}")

file(REMOVE_RECURSE ${DIR}/man ${DIR}/bash-completion)
file(MAKE_DIRECTORY ${DIR}/man/man1 ${DIR}/bash-completion/completions)
foreach(name ${names})
    string(STRIP "${name}" name)
    tokio_write(${DIR}/man/man1/tokio-${name}.1 help --man ${name})
endforeach()
tokio_write(${DIR}/bash-completion/completions/tokio completion bash)
# last: the build takes this page for all of them
tokio_write(${DIR}/man/man1/tokio.1 help --man)
