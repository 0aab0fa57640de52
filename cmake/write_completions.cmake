# cmake -DQJT=<qjt binary> -DOUT=<directory> -P write_completions.cmake
# Writes the completion scripts the built qjt prints (qjt completion SHELL),
# under the names each shell looks for: qjt (bash), _qjt (zsh), qjt.fish.
file(MAKE_DIRECTORY ${OUT})
foreach(pair IN ITEMS "bash;qjt" "zsh;_qjt" "fish;qjt.fish")
  list(GET pair 0 shell)
  list(GET pair 1 name)
  execute_process(COMMAND ${QJT} completion ${shell} OUTPUT_FILE ${OUT}/${name} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "qjt completion ${shell} failed: ${status}")
  endif()
endforeach()
