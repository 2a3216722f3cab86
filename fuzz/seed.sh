#!/usr/bin/env bash
# Seeds each target's corpus (fuzz/corpus/TARGET, not committed) from the project's own
# files: its maps, scenarios, and a waypoint file, a .nav file and a replay made from them.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/{map_text,scenario_toml,waypoint_json,nav_file,replay_bytes,small_match} logs seeds
cp ../maps/*.map corpus/map_text/
cp ../scenarios/*.toml corpus/scenario_toml/
bin=../target/release/botarena
[ -x "$bin" ] || (cd .. && cargo build --release -q)
if [ ! -f seeds/room.json ]; then
  "$bin" waypoints grid ../maps/rim_pool.map --spacing 128 --out seeds/room.json >/dev/null 2>&1
  "$bin" nav compile ../maps/rim_pool.map --cell 32 --out seeds/room.nav >/dev/null 2>&1
  "$bin" run ../scenarios/duel.toml --ticks 20 --record seeds/duel.replay >/dev/null 2>&1
fi
cp seeds/room.json corpus/waypoint_json/
cp seeds/room.nav corpus/nav_file/
printf "\\001" | cat - seeds/duel.replay > corpus/replay_bytes/duel.replay
