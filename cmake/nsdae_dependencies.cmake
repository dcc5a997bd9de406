# What libnsdae and libnsdae_lcp link against, found on this machine by name and given as imported
# targets: nsdae::siconos_numerics, nsdae::lapacke, nsdae::openblas, nsdae::sundials_ida, nsdae::klu,
# nsdae::cholmod, nsdae::glpk.
#
# Read twice: by nsdae's own build (CMakeLists.txt) and, installed next to nsdaeConfig.cmake, by
# find_package(nsdae) on the consumer's machine. The exported targets name these targets, never a
# path of the machine that built nsdae, so the consumer's own copies are the ones linked.
#
# Sets NSDAE_MISSING_DEPENDENCIES to a list of what was not found (the reader decides how to fail:
# the build stops, find_package reports nsdae as not found).
set(NSDAE_MISSING_DEPENDENCIES "")

# Siconos numerics by hand: its CMake config package demands the whole `siconos` package at an
# exact 4.5.0 version, which Debian 12's split packages do not satisfy.
if(NOT TARGET nsdae::siconos_numerics)
  find_path(SICONOS_NUMERICS_INCLUDE_DIR NAMES MLCP_Solvers.h PATH_SUFFIXES siconos/numerics)
  find_library(SICONOS_NUMERICS_LIBRARY NAMES siconos_numerics)
  if(SICONOS_NUMERICS_INCLUDE_DIR AND SICONOS_NUMERICS_LIBRARY)
    # <prefix>/include/siconos: the numerics headers include "SiconosConfig.h" from there
    get_filename_component(_nsdae_root "${SICONOS_NUMERICS_INCLUDE_DIR}" DIRECTORY)
    add_library(nsdae::siconos_numerics UNKNOWN IMPORTED)
    set_target_properties(nsdae::siconos_numerics PROPERTIES
      IMPORTED_LOCATION "${SICONOS_NUMERICS_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${_nsdae_root}")
  else()
    list(APPEND NSDAE_MISSING_DEPENDENCIES "Siconos numerics (Debian: libsiconos-numerics-dev)")
  endif()
endif()

# LAPACKE and OpenBLAS through their pkg-config files.
find_package(PkgConfig QUIET)
foreach(_nsdae_dep IN ITEMS lapacke openblas)
  if(NOT TARGET nsdae::${_nsdae_dep})
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(NSDAE_DEP_${_nsdae_dep} QUIET IMPORTED_TARGET ${_nsdae_dep})
    endif()
    if(TARGET PkgConfig::NSDAE_DEP_${_nsdae_dep})
      add_library(nsdae::${_nsdae_dep} INTERFACE IMPORTED)
      set_target_properties(nsdae::${_nsdae_dep} PROPERTIES
        INTERFACE_LINK_LIBRARIES PkgConfig::NSDAE_DEP_${_nsdae_dep})
    else()
      list(APPEND NSDAE_MISSING_DEPENDENCIES
           "${_nsdae_dep} through pkg-config (Debian: pkg-config liblapacke-dev libopenblas-dev)")
    endif()
  endif()
endforeach()

# SUNDIALS IDA and its serial vector: Debian ships no pkg-config file for them.
if(NOT TARGET nsdae::sundials_ida)
  find_path(SUNDIALS_IDA_INCLUDE_DIR NAMES ida/ida.h)
  find_library(SUNDIALS_IDA_LIBRARY NAMES sundials_ida)
  find_library(SUNDIALS_NVECSERIAL_LIBRARY NAMES sundials_nvecserial)
  # KLU inside IDA (the event-driven engine's sparse Newton matrix, src/eventdriven/driver.c)
  find_library(SUNDIALS_SUNLINSOLKLU_LIBRARY NAMES sundials_sunlinsolklu)
  find_library(SUNDIALS_SUNMATRIXSPARSE_LIBRARY NAMES sundials_sunmatrixsparse)
  if(SUNDIALS_IDA_INCLUDE_DIR AND SUNDIALS_IDA_LIBRARY AND SUNDIALS_NVECSERIAL_LIBRARY
     AND SUNDIALS_SUNLINSOLKLU_LIBRARY AND SUNDIALS_SUNMATRIXSPARSE_LIBRARY)
    add_library(nsdae::sundials_ida UNKNOWN IMPORTED)
    set_target_properties(nsdae::sundials_ida PROPERTIES
      IMPORTED_LOCATION "${SUNDIALS_IDA_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${SUNDIALS_IDA_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES
        "${SUNDIALS_NVECSERIAL_LIBRARY};${SUNDIALS_SUNLINSOLKLU_LIBRARY};${SUNDIALS_SUNMATRIXSPARSE_LIBRARY}")
  else()
    list(APPEND NSDAE_MISSING_DEPENDENCIES "SUNDIALS IDA (Debian: libsundials-dev)")
  endif()
endif()

# SuiteSparse KLU (the MLCS stepper's sparse step matrix, src/stepping/sparse_step.c): Debian ships
# no pkg-config file for SuiteSparse 5, so by hand; libklu.so brings AMD, COLAMD and BTF with it.
# LDL and AMD (the same package) are called directly: the step's sparse certificate (sparse_cert.c).
if(NOT TARGET nsdae::klu)
  find_path(KLU_INCLUDE_DIR NAMES klu.h PATH_SUFFIXES suitesparse)
  find_library(KLU_LIBRARY NAMES klu)
  find_library(LDL_LIBRARY NAMES ldl)
  find_library(AMD_LIBRARY NAMES amd)
  if(KLU_INCLUDE_DIR AND KLU_LIBRARY AND LDL_LIBRARY AND AMD_LIBRARY)
    add_library(nsdae::klu UNKNOWN IMPORTED)
    set_target_properties(nsdae::klu PROPERTIES
      IMPORTED_LOCATION "${KLU_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${KLU_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${LDL_LIBRARY};${AMD_LIBRARY}")
  else()
    list(APPEND NSDAE_MISSING_DEPENDENCIES "SuiteSparse KLU (Debian: libsuitesparse-dev)")
  endif()
endif()

# One header and one library by hand (no pkg-config file in Debian 12): target nsdae::<name>, or the
# package to install appended to NSDAE_MISSING_DEPENDENCIES. A macro, so that the list it appends
# to is the caller's.
macro(nsdae_find_by_hand name header suffix library what)
  if(NOT TARGET nsdae::${name})
    string(TOUPPER "${name}" _nsdae_up)
    find_path(${_nsdae_up}_INCLUDE_DIR NAMES ${header} PATH_SUFFIXES ${suffix})
    find_library(${_nsdae_up}_LIBRARY NAMES ${library})
    if(${_nsdae_up}_INCLUDE_DIR AND ${_nsdae_up}_LIBRARY)
      add_library(nsdae::${name} UNKNOWN IMPORTED)
      set_target_properties(nsdae::${name} PROPERTIES IMPORTED_LOCATION "${${_nsdae_up}_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${${_nsdae_up}_INCLUDE_DIR}")
    else()
      list(APPEND NSDAE_MISSING_DEPENDENCIES "${what}")
    endif()
  endif()
endmacro()

# SuiteSparse CHOLMOD (Moreau-Jean's mass matrix when its band is wide but its nonzeros few,
# src/stepping/mass_sparse.c), from the same Debian package as KLU.
nsdae_find_by_hand(cholmod cholmod.h suitesparse cholmod "SuiteSparse CHOLMOD (Debian: libsuitesparse-dev)")

# GLPK (the complementarity layer's exact linear programs, lcp/lp_exact.c: glp_exact decides in
# rational arithmetic what a KKT Lemke on a rank-deficient pattern could not).
nsdae_find_by_hand(glpk glpk.h "" glpk "GLPK (Debian: libglpk-dev)")
