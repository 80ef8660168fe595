#!/bin/sh
# Refresh the workbench's vendored chart library: Observable Plot's UMD build and the d3
# it draws with (Plot's own dependency), with their licenses and those of what Plot's
# build bundles. Needs node and npm; run it from anywhere:
#
#   sh src/tavernkeep/server/static/vendor/refresh.sh [PLOT_VERSION]
#
# then check the workbench's browser test (tests/browser/test_workbench.py) and the
# versions named in README.md beside this script.
set -eu
plot_version=${1:-0.6.17}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# A field of a package.json (read as a file: a package's exports may not name it).
field() { node -e "process.stdout.write(String(require('$work/' + process.argv[1]).$2))" "$1"; }
npm init -y >/dev/null
npm install --no-audit --no-fund --ignore-scripts "@observablehq/plot@$plot_version" >/dev/null
cp node_modules/@observablehq/plot/dist/plot.umd.min.js "$here/plot.umd.min.js"
cp node_modules/d3/dist/d3.min.js "$here/d3.min.js"
{
    echo "The workbench's charts (static/workbench/charts.js) are drawn with these, unchanged:"
    for package in @observablehq/plot d3 interval-tree-1d binary-search-bounds isoformat; do
        about="node_modules/$package/package.json"
        echo
        echo "======== $package $(field "$about" version) ($(field "$about" license))"
        echo
        cat "node_modules/$package/LICENSE"
    done
} > "$here/LICENSES.txt"
echo "vendored @observablehq/plot $plot_version and d3 $(field node_modules/d3/package.json version)"
