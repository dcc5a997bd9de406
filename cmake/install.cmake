# `cmake --install build --prefix P`: the command, libnsdae and libnsdae_lcp (static and shared),
# the public headers, a CMake package (find_package(nsdae)) and nsdae.pc for pkg-config.
#
#   find_package(nsdae 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE nsdae::nsdae)         # shared libnsdae (+ libnsdae_lcp)
#   target_link_libraries(app PRIVATE nsdae::nsdae_static)  # static, with its dependencies
#   (nsdae::lcp and nsdae::lcp_static: the complementarity layer alone)
#
#   cc app.c $(pkg-config --cflags --libs nsdae)             # shared
#
# Everything installed is relocatable: the CMake files and nsdae.pc locate the prefix from where
# they are, so `--prefix` at install time is enough.
include(CMakePackageConfigHelpers)
set(NSDAE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/nsdae")

install(TARGETS nsdae RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
# the HDF5 sink's module, found by the command relative to its own directory (src/CMakeLists.txt)
install(TARGETS nsdae_hdf5 LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/nsdae")
install(TARGETS nsdae_core nsdae_core_shared nsdae_lcp nsdae_lcp_shared EXPORT nsdaeTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/nsdae" "${NSDAE_GENERATED_INCLUDE_DIR}/nsdae"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.h")

install(EXPORT nsdaeTargets NAMESPACE nsdae:: DESTINATION "${NSDAE_CMAKE_DIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/nsdaeConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/nsdaeConfig.cmake" INSTALL_DESTINATION "${NSDAE_CMAKE_DIR}")
# 0.x: a minor version may break the API, so only the same minor is compatible
write_basic_package_version_file("${PROJECT_BINARY_DIR}/cmake/nsdaeConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/cmake/nsdaeConfig.cmake" "${PROJECT_BINARY_DIR}/cmake/nsdaeConfigVersion.cmake"
              "${PROJECT_SOURCE_DIR}/cmake/nsdae_dependencies.cmake"
        DESTINATION "${NSDAE_CMAKE_DIR}")

# nsdae.pc: the prefix is found from the file's own directory (${pcfiledir}), so the path from
# <libdir>/pkgconfig back to the prefix is computed here, under a stand-in prefix.
file(RELATIVE_PATH NSDAE_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" NSDAE_PC_TO_PREFIX "${NSDAE_PC_TO_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/nsdae.pc.in" "${PROJECT_BINARY_DIR}/nsdae.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/nsdae.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
