# `cpack -G DEB`: a Debian package of what `cmake --install` installs, under /usr.
# Depends: dpkg-shlibdeps reads the libraries the binary links; libcurl, libarchive and libgit2 are
# opened at run time (dlopen), so the packages holding the sonames byoc opens are added here.
set(CPACK_PACKAGE_NAME byoc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for Amazon Braket Hybrid Jobs in your own container")
set(CPACK_PACKAGE_DESCRIPTION "byoc takes a quantum program from a project directory to an Amazon Braket\n\
Hybrid Job running in your own container: decide, build, push, permit, run, monitor,\n\
as a terminal UI and as command-line verbs.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "byoc developers <byoc@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "docker.io | docker-ce, man-db")

set(BYOC_DLOPEN_DEPENDS "")
find_program(DPKG_QUERY dpkg-query)
foreach(lib "${CURL_LIBDIR}/libcurl.so.4" "${ARCHIVE_LIBDIR}/libarchive.so.13" "${LIBGIT2_LIBDIR}/libgit2.so.${LIBGIT2_VERSION}")
  # libgit2's soname is major.minor: "1.5.1" -> "1.5"
  string(REGEX REPLACE "^(.*/libgit2\\.so\\.[0-9]+\\.[0-9]+)\\.[0-9]+$" "\\1" lib "${lib}")
  if(DPKG_QUERY AND EXISTS "${lib}")
    execute_process(COMMAND ${DPKG_QUERY} -S "${lib}" OUTPUT_VARIABLE owner ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE)
    string(REGEX REPLACE "^([^:,]+).*$" "\\1" pkg "${owner}")
    if(pkg)
      list(APPEND BYOC_DLOPEN_DEPENDS ${pkg})
    endif()
  endif()
endforeach()
string(REPLACE ";" ", " CPACK_DEBIAN_PACKAGE_DEPENDS "${BYOC_DLOPEN_DEPENDS}")
include(CPack)
