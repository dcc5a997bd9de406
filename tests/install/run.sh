#!/usr/bin/env bash
# Installs the build to a temporary prefix and uses it as a user would: builds the C and C++
# consumers with find_package(nsdae) (shared and static) and with pkg-config, runs each on
# decay.nsm (they check closed forms), and runs the installed command. Exits non-zero at the
# first failure. CFLAGS/CXXFLAGS/LDFLAGS from the environment reach every consumer build (the
# sanitizer build passes -fsanitize there).
# usage: tests/install/run.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2") work=$(realpath -m "$3")
here=$src/tests/install
model=$here/decay.nsm
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
(cd "$prefix" && find . -type f | sort | sed 's|^\./|  |')

echo "== find_package(nsdae): C (shared, static) and C++"
cmake -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$work/cmake.log"
cmake --build "$work/cmake" > "$work/build.log"
for exe in consumer_shared consumer_static consumer_cxx; do
    echo "-- $exe"
    "$work/cmake/$exe" "$model"
done

echo "== pkg-config nsdae: C and C++"
pc=$(find "$prefix" -name nsdae.pc)
libdir=$(dirname "$(dirname "$pc")")
export PKG_CONFIG_PATH=$(dirname "$pc")
echo "pkg-config --cflags --libs nsdae: $(pkg-config --cflags --libs nsdae)"
# shellcheck disable=SC2046,SC2086
${CC:-cc} ${CFLAGS:-} -std=c11 "$here/consumer.c" -o "$work/pc_consumer" $(pkg-config --cflags --libs nsdae) -lm \
    -Wl,-rpath,"$libdir" ${LDFLAGS:-}
# shellcheck disable=SC2046,SC2086
${CXX:-c++} ${CXXFLAGS:-} "$here/consumer.cpp" -o "$work/pc_consumer_cxx" $(pkg-config --cflags --libs nsdae) \
    -Wl,-rpath,"$libdir" ${LDFLAGS:-}
echo "-- pc_consumer"
"$work/pc_consumer" "$model"
echo "-- pc_consumer_cxx"
"$work/pc_consumer_cxx" "$model"

echo "== the installed command"
"$prefix/bin/nsdae" --version
"$prefix/bin/nsdae" simulate "$model" 2>&1 | tail -2
# HDF5 through the installed module (<libdir>/nsdae/nsdae_hdf5.so), not the build tree's
"$prefix/bin/nsdae" simulate "$model" --format hdf5 --out "$work/decay.h5" 2>&1 | tail -1
test -s "$work/decay.h5"
echo "== the installed Python module (PYTHONPATH=<prefix>/lib/python3/dist-packages)"
py=${NSDAE_PYTHON3:-/usr/bin/python3}
pydir=$(dirname "$(find "$prefix" -path '*/nsdae/__init__.py')")
export PYTHONPATH=$(dirname "$pydir")
# sanitizer build: the instrumented library needs its runtime preloaded in the interpreter
env ${NSDAE_PRELOAD:+LD_PRELOAD=$NSDAE_PRELOAD ASAN_OPTIONS=detect_leaks=0} NSDAE_SOURCE_DIR="$src" \
    "$py" "$here/../python/test_nsdae.py" 2>&1 | tail -3
env ${NSDAE_PRELOAD:+LD_PRELOAD=$NSDAE_PRELOAD ASAN_OPTIONS=detect_leaks=0} \
    "$py" "$prefix/share/nsdae/python/plot_trajectory.py" "$model" "$work/decay.png"
echo "install test: every consumer ran and checked its numbers"
