# Writes <OUT> (include/nsdae/version.h) from <IN> with the project version and the git commit of
# <SOURCE_DIR>. Run at configure time and again at every build (a custom target), so that the
# commit stays current without re-configuring; configure_file rewrites the file only when its text
# changes, so an unchanged commit recompiles nothing.
# usage: cmake -DIN=... -DOUT=... -DSOURCE_DIR=... -DVERSION=X.Y.Z -P version_header.cmake
string(REPLACE "." ";" parts "${VERSION}")
list(GET parts 0 NSDAE_VERSION_MAJOR)
list(GET parts 1 NSDAE_VERSION_MINOR)
list(GET parts 2 NSDAE_VERSION_PATCH)
set(NSDAE_VERSION_STRING "${VERSION}")

set(NSDAE_GIT_COMMIT "unknown")
find_program(GIT_EXECUTABLE git)
if(GIT_EXECUTABLE)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND commit)
    set(NSDAE_GIT_COMMIT "${commit}")
    # tracked files only: build directories and scratch files do not make a tree dirty
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0 AND NOT changes STREQUAL "")
      string(APPEND NSDAE_GIT_COMMIT "-dirty")
    endif()
  endif()
endif()
configure_file("${IN}" "${OUT}" @ONLY)
