#!/usr/bin/env node
// A client of the Rattus referee protocol (docs/protocol.md) in plain Node.js, no npm packages.
//
// It starts `rattus serve`, plays random games through it, checks after every step what
// each seat may see (at most three tokens in a region; every player's cubes add up to the
// same total; nobody sees the faces in the stock), writes each game's record
// (docs/records.md) and has the referee validate the record and a prefix of it.
//
//   node referee_client.js [--games N] [--players P] [--seed S] [--record-dir DIR]
//                          [--command "rattus serve"]
//
// Prints one JSON line per game; exit 0 if every check held, 1 if not, 2 on bad usage.
"use strict";

const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const readline = require("readline");

function parseArgs(argv) {
  const opts = { games: 1, players: 4, seed: 1, recordDir: null, command: "rattus serve" };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--games") opts.games = Number(value);
    else if (flag === "--players") opts.players = Number(value);
    else if (flag === "--seed") opts.seed = Number(value);
    else if (flag === "--record-dir") opts.recordDir = value;
    else if (flag === "--command") opts.command = value;
    else throw new Error(`unknown option ${flag}`);
  }
  for (const key of ["games", "players", "seed"]) {
    if (!Number.isInteger(opts[key]) || opts[key] < 0) throw new Error(`--${key} takes a whole number`);
  }
  return opts;
}

// A small seeded generator (mulberry32), so that a run can be repeated.
function generator(seed) {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % n);
  };
}

// The referee: one request a line out, one answer a line back, answered in order.
function startReferee(command) {
  const words = command.split(/\s+/).filter(Boolean);
  const child = spawn(words[0], words.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  let nextId = 1;
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line);
    const pending = waiting.shift();
    if (!pending) throw new Error(`an answer nobody asked for: ${line}`);
    if (answer.id !== pending.id) pending.reject(new Error(`answer ${answer.id} to request ${pending.id}`));
    else pending.resolve(answer);
  });
  child.on("exit", (code) => {
    while (waiting.length) waiting.shift().reject(new Error(`the referee ended (exit ${code})`));
  });
  const ask = (request) => new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.push({ id, resolve, reject });
    child.stdin.write(JSON.stringify({ ...request, id }) + "\n");
  });
  const close = () => new Promise((resolve) => { child.on("close", resolve); child.stdin.end(); });
  return { ask, close };
}

// What a seat sees must make sense: checks on the observation.
function checkObservation(seen, seat, problems, totals) {
  const zone = (name) => seen.zones[name] || [];
  for (const [key, tokens] of zone("rats")) {
    if (tokens.length > 3) problems.push(`P${seat} sees ${tokens.length} tokens in ${key[0]}`);
  }
  for (const [, tokens] of zone("stock")) {
    if (tokens.some((t) => t !== null)) problems.push(`P${seat} sees a face in the stock`);
  }
  const byPlayer = {};
  const add = (p, n) => { byPlayer[p] = (byPlayer[p] || 0) + n; };
  for (const [[p], n] of seen.values.supply) add(p, n);
  for (const [[p], n] of seen.values.castle) add(p, n);
  for (const [[p], n] of seen.values.cubes) add(p, n);
  for (const [p, total] of Object.entries(byPlayer)) {
    if (totals[p] === undefined) totals[p] = total;
    else if (totals[p] !== total) problems.push(`P${p}'s cubes add up to ${total}, not ${totals[p]}`);
  }
}

function recordChance(entries, applied) {
  for (const done of applied || []) {
    entries.push({ by: "chance", action: done.action });
    for (const face of done.revealed) entries.push({ reveal: face });
  }
}

async function playOne(ask, players, seed, pick) {
  const problems = [];
  const fail = (what, answer) => { throw new Error(`${what}: ${JSON.stringify(answer.error || answer)}`); };
  const started = await ask({ cmd: "new", players, seed, chance: "seed" });
  if (!started.ok) fail("new", started);
  const game = started.game;
  const entries = [];
  recordChance(entries, started.outcomes);
  const totals = {};
  let status = started;
  let steps = 0;
  while (status.to_move !== null) {
    const legal = await ask({ cmd: "legal", game });
    if (!legal.ok) fail("legal", legal);
    if (legal.to_move === "chance") { problems.push("chance mode seed stopped at a chance event"); break; }
    const action = legal.actions[pick(legal.actions.length)];
    const applied = await ask({ cmd: "apply", game, action });
    if (!applied.ok) fail(`apply ${action}`, applied);
    entries.push({ by: `P${legal.to_move}`, action: applied.action });
    for (const face of applied.revealed) entries.push({ reveal: face });
    recordChance(entries, applied.outcomes);
    for (let seat = 0; seat < players; seat++) {
      const view = await ask({ cmd: "state", game, player: seat });
      if (!view.ok) fail("state", view);
      checkObservation(view.observation, seat, problems, totals);
    }
    status = applied;
    steps++;
  }
  const seats = Array.from({ length: players }, (_, p) => `P${p}`);
  const record = { format: "rattus-record", version: 1, kind: "omniscient", seats, interpretations: {}, seed, entries };
  const verdict = (await ask({ cmd: "validate", record })).verdict;
  if (verdict.status !== "legal" || !verdict.finished) problems.push(`own record: ${verdict.status} ${verdict.reason}`);
  else if (JSON.stringify(verdict.scores) !== JSON.stringify(status.scores)) {
    problems.push(`own record: scores ${verdict.scores}, the game said ${status.scores}`);
  }
  // A prefix ending with a player's action (and its reveals): legal so far, and the referee names who is next.
  let cut = Math.floor(entries.length / 2);
  const endsTurnStep = (k) => (entries[k - 1].by || "").startsWith("P") && !(k < entries.length && "reveal" in entries[k]);
  while (cut > 0 && !endsTurnStep(cut)) cut--;
  const prefix = (await ask({ cmd: "validate", record: { ...record, entries: entries.slice(0, cut) } })).verdict;
  if (prefix.status !== "legal" || prefix.finished || prefix.legal.length === 0 || prefix.to_move === null) {
    problems.push(`prefix of ${cut} entries: ${prefix.status}, next ${prefix.next}, ${prefix.legal.length} legal`);
  }
  await ask({ cmd: "drop", game });
  return { game, players, seed, steps, entries: entries.length, scores: status.scores, winners: status.winners,
           record, problems };
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`referee_client: ${err.message}`);
    return 2;
  }
  const { ask, close } = startReferee(opts.command);
  const hello = await ask({ cmd: "hello", version: 1 });
  if (!hello.ok || hello.protocol !== "rattus-referee") throw new Error(`handshake: ${JSON.stringify(hello)}`);
  const pick = generator(opts.seed);
  let failed = 0;
  for (let g = 0; g < opts.games; g++) {
    const result = await playOne(ask, opts.players, opts.seed + g, pick);
    if (opts.recordDir) {
      fs.mkdirSync(opts.recordDir, { recursive: true });
      fs.writeFileSync(path.join(opts.recordDir, `game-${opts.seed + g}.json`), JSON.stringify(result.record, null, 1));
    }
    delete result.record;
    if (result.problems.length) failed++;
    console.log(JSON.stringify(result));
  }
  await ask({ cmd: "quit" });
  await close();
  return failed ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (err) => { console.error(`referee_client: ${err.stack}`); process.exitCode = 1; });
