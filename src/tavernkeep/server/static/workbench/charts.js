// The comparison's charts, drawn with Observable Plot (static/vendor/, loaded by the page
// as window.Plot) from the rows the server sends (workbench_compare.py `charts`): each
// seat's win rate with each pack, each card's users' wins, each Party Leader (or other
// label a seat holds), and how long the games ran. Every interval is the 95% one the lab
// gives; every chart is drawn again as more games come in, so the intervals narrow.

import { h } from "../dom.js";

const ARMS = { domain: ["base", "changed"], range: ["#8b7355", "#8b2e16"], legend: true };
const WIDTH = 460;

function figure(name, caption, plot) {
  return h("figure", { class: "wb-chart", dataset: { chart: name } }, h("figcaption", { text: caption }), plot);
}

/** A rate in each arm with its interval, one row a thing (a seat, a Leader). */
function rates(rows, by, caption, name) {
  const Plot = window.Plot;
  const things = [...new Set(rows.map((r) => r[by]))];
  const plot = Plot.plot({
    width: WIDTH,
    height: 44 + things.length * 34,
    marginLeft: 190,
    ariaLabel: caption,
    color: ARMS,
    // `percent` scales the values by 100 before the domain applies: the domain is in %.
    x: { label: "win rate (%)", percent: true, grid: true, domain: [0, 100 * Math.max(0.5, ...rows.map((r) => r.high || 0))] },
    y: { axis: null, domain: ARMS.domain },
    fy: { label: null, domain: things, axis: "left" },
    marks: [
      Plot.ruleY(rows, { fy: by, y: "arm", x1: "low", x2: "high", stroke: "arm", strokeWidth: 2 }),
      Plot.dot(rows, { fy: by, y: "arm", x: "rate", fill: "arm", r: 3.5, tip: true, title: (r) => `${r[by]}, ${r.arm}: ${(r.rate * 100).toFixed(1)}% (${(r.low * 100).toFixed(1)}–${(r.high * 100).toFixed(1)}%)` }),
    ],
  });
  return figure(name, caption, plot);
}

/** Each card's users' win share, changed less base, with its paired interval. */
function cards(rows) {
  const Plot = window.Plot;
  const shown = rows
    .filter((r) => r.users_win && r.users_win.mean !== null && r.users_win.ci95 && r.users_win.ci95[0] !== null)
    .map((r) => ({ card: r.card, touched: r.touched ? "touched" : "moved", mean: r.users_win.mean * 100, low: r.users_win.ci95[0] * 100, high: r.users_win.ci95[1] * 100 }));
  if (!shown.length) return null;
  const caption = "Each card's users' wins, changed less base (points; the same seats in both)";
  const plot = Plot.plot({
    width: WIDTH,
    height: 50 + shown.length * 24,
    marginLeft: 250,
    ariaLabel: caption,
    x: { label: "difference (points)", grid: true },
    y: { label: null, domain: shown.map((r) => r.card) },
    color: { domain: ["touched", "moved"], range: ["#8b2e16", "#2e6db4"], legend: true },
    marks: [
      Plot.ruleX([0], { stroke: "#6b563d" }),
      Plot.ruleY(shown, { y: "card", x1: "low", x2: "high", stroke: "touched", strokeWidth: 2 }),
      Plot.dot(shown, { y: "card", x: "mean", fill: "touched", r: 3.5, tip: true, title: (r) => `${r.card}: ${r.mean.toFixed(1)} points (${r.low.toFixed(1)} to ${r.high.toFixed(1)})` }),
    ],
  });
  return figure("cards", caption, plot);
}

/** How many of the games lasted how many turns, with each pack. */
function lengths(rows) {
  const Plot = window.Plot;
  const caption = "Game length: the share of games by turns";
  const plot = Plot.plot({
    width: WIDTH,
    height: 200,
    ariaLabel: caption,
    color: ARMS,
    x: { label: "turns" },
    y: { label: "share of games (%)", percent: true, grid: true },
    marks: [Plot.lineY(rows, { x: "turns", y: "share", stroke: "arm", strokeWidth: 2, curve: "step" }), Plot.ruleY([0])],
  });
  return figure("lengths", caption, plot);
}

/** Every chart of a result so far, as figures (none if Plot did not load). */
export function drawCharts(charts) {
  if (!window.Plot || !charts) return [h("p", { class: "hint", text: "The charts' library did not load: the findings above say it all." })];
  const out = [rates(charts.seats, "seat", "Win rate by seat, with each pack (95% intervals)", "seats")];
  out.push(cards(charts.cards));
  if (charts.labels && charts.labels.length) {
    const heading = `Win rate by ${charts.labels[0].fact === "leader" ? "Party Leader" : charts.labels[0].fact}, with each pack`;
    out.push(rates(charts.labels, "label", heading, "labels"));
  }
  out.push(lengths(charts.lengths));
  return out.filter(Boolean);
}
