# Check (libcheck), cJSON, inih (the instructors' points file), libxml2
# (JUnit XML) and libseccomp (the runner's system-call wall) through
# pkg-config.
#
# Installed system-wide (Debian: check libsubunit-dev libcjson-dev
# libinih-dev libxml2-dev libseccomp-dev), nothing
# is needed. Installed under a prefix (no root, clusters): pass
# -DCMAKE_PREFIX_PATH=<prefix>. Unpacked Debian packages (dpkg -x into a
# folder, see scripts/fetch-deps.sh): pass -DSYNCLAB_DEPS_ROOT=<folder>;
# their .pc files say /usr, so that folder becomes pkg-config's sysroot.
find_package(PkgConfig REQUIRED)

set(SYNCLAB_DEPS_ROOT "" CACHE PATH "Folder with Debian packages unpacked by dpkg -x")
if(SYNCLAB_DEPS_ROOT)
  get_filename_component(_root "${SYNCLAB_DEPS_ROOT}" ABSOLUTE)
  file(GLOB _pcdirs "${_root}/usr/lib/*/pkgconfig" "${_root}/usr/lib/pkgconfig"
                    "${_root}/usr/share/pkgconfig")
  list(JOIN _pcdirs ":" _pcpath)
  set(ENV{PKG_CONFIG_SYSROOT_DIR} "${_root}")
  set(ENV{PKG_CONFIG_LIBDIR} "${_pcpath}")
  message(STATUS "Dependencies from ${_root}")
  # libxml2's headers include ICU's (<unicode/...>), and libxml2.so needs
  # libicuuc: RPATH rather than RUNPATH, so that the loader also looks in
  # the unpacked folder for a library's own dependencies
  add_link_options(-Wl,--disable-new-dtags)
endif()

pkg_check_modules(CHECK REQUIRED IMPORTED_TARGET check)
pkg_check_modules(CJSON REQUIRED IMPORTED_TARGET libcjson)
pkg_check_modules(INIH REQUIRED IMPORTED_TARGET inih)
# libxml2: the JUnit report (xmlTextWriter escapes and encodes for us)
pkg_check_modules(LIBXML2 REQUIRED IMPORTED_TARGET libxml-2.0)
if(SYNCLAB_DEPS_ROOT AND EXISTS "${_root}/usr/include/unicode")
  target_include_directories(PkgConfig::LIBXML2 INTERFACE "${_root}/usr/include")
endif()

# libseccomp: linked into every runner (grader/runner/syscall_wall.c),
# statically when the archive is there, so the sandbox needs no .so of it
pkg_check_modules(SECCOMP REQUIRED IMPORTED_TARGET libseccomp)
find_library(SYNCLAB_SECCOMP_LIB NAMES libseccomp.a seccomp
             HINTS ${SECCOMP_LIBRARY_DIRS} ${SECCOMP_STATIC_LIBRARY_DIRS}
             NO_DEFAULT_PATH)
if(NOT SYNCLAB_SECCOMP_LIB)
  find_library(SYNCLAB_SECCOMP_LIB NAMES libseccomp.a seccomp REQUIRED)
endif()
if(SYNCLAB_DEPS_ROOT AND EXISTS "${_root}/usr/include/seccomp.h")
  target_include_directories(PkgConfig::SECCOMP INTERFACE "${_root}/usr/include")
endif()
message(STATUS "Runner's seccomp library: ${SYNCLAB_SECCOMP_LIB}")
