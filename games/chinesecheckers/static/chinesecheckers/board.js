// Chinese Checkers board for Tapete's table frame (static/js/table.js).
// Draws the 121-hole star as SVG from the seat's view, turned so that the viewer's start point is at the bottom
// (spectators: seat 0's). The player to act picks one of their marbles and then one of its highlighted legal
// destinations, with a click, a tap or the keyboard (Tab, Enter or Space, Escape to cancel). The last move is
// highlighted and animated along its hop path for everyone, and every event becomes one log line in words.
(function () {
  "use strict";

  // ------------------------------------------------------------------------------------------- words

  const { el, svg, gettext: _, ngettext, interpolate: fmt } = Tapete.kit;  // static/js/table.js, its header

  // ------------------------------------------------------------------------------------------- geometry

  // Cube coordinates [x, y, z], x + y + z = 0 (docs/rules/chinesecheckers.md §1). Star point i lies where
  // sign * cube[axis] > 4: T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-; a player's target is the
  // point opposite its start.
  const POINT_AXES = [[0, 1], [2, -1], [1, 1], [0, -1], [2, 1], [1, -1]];
  const SQRT3 = Math.sqrt(3);
  const UNIT = 10; // SVG user units per hex size (adjacent holes are UNIT * sqrt(3) apart)
  const CELLS = buildCells();

  function buildCells() {
    const cells = [];
    for (let z = -8; z <= 8; z++) {
      for (let x = -8; x <= 8; x++) {
        const y = -x - z;
        if ((x >= -4 && y >= -4 && z >= -4) || (x <= 4 && y <= 4 && z <= 4)) cells.push([x, y, z]);
      }
    }
    return cells;
  }

  const cubeKey = (cube) => cube.join(",");
  const sameCube = (a, b) => cubeKey(a) === cubeKey(b);
  const distance = (a, b) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
  const pointCells = (point) => CELLS.filter((cube) => pointOf(cube) === point);

  function pointOf(cube) {
    for (let point = 0; point < 6; point++) {
      const [axis, sign] = POINT_AXES[point];
      if (sign * cube[axis] > 4) return point;
    }
    return -1;
  }

  // Rows gained towards the target by a player who started at `start` (the score change of a move).
  function progress(cube, start) {
    const [axis, sign] = POINT_AXES[(start + 3) % 6];
    return sign * cube[axis];
  }

  // Screen positions with star point `bottom` at the bottom. Axial coordinates q = x, r = z; the x axis is
  // mirrored so that the seats' turn order (T0, T1, T2…) runs clockwise on screen, as round a real table.
  function makeLayout(bottom) {
    const raw = (cube) => [-SQRT3 * (cube[0] + cube[2] / 2), 1.5 * cube[2]];
    const centre = pointCells(bottom).map(raw).reduce((sum, [x, y]) => [sum[0] + x, sum[1] + y], [0, 0]);
    const turn = Math.PI / 2 - Math.atan2(centre[1], centre[0]);
    const cos = Math.cos(turn);
    const sin = Math.sin(turn);
    const round = (value) => Math.round(value * 100) / 100;
    const project = (cube) => {
      const [x, y] = raw(cube);
      return [round(UNIT * (x * cos - y * sin)), round(UNIT * (x * sin + y * cos))];
    };
    const positions = new Map(CELLS.map((cube) => [cubeKey(cube), project(cube)]));
    const at = (cube) => positions.get(cubeKey(cube)) || project(cube);
    return { project, at, places: numberHoles(positions) };
  }

  // "Row 3, hole 2": rows counted from the bottom of the screen (1 to 17), holes from the left.
  function numberHoles(positions) {
    const rowOf = (y) => Math.round(y / (1.5 * UNIT));
    const rows = new Map();
    for (const [key, [x, y]] of positions) {
      const row = rowOf(y);
      if (!rows.has(row)) rows.set(row, []);
      rows.get(row).push([x, key]);
    }
    const lowest = Math.max(...rows.keys());
    const places = new Map();
    for (const [row, holes] of rows) {
      holes.sort((a, b) => a[0] - b[0]).forEach(([, key], index) =>
        places.set(key, { row: lowest - row + 1, hole: index + 1 }));
    }
    return places;
  }

  // A triangle [a, b, c] of cubes pushed out from its centre so its edges pass `margin` hex sizes beyond them.
  function grownTriangle(corners, inradius, margin) {
    const centre = [0, 1, 2].map((i) => (corners[0][i] + corners[1][i] + corners[2][i]) / 3);
    const factor = (inradius + margin) / inradius;
    return corners.map((corner) => corner.map((value, i) => centre[i] + (value - centre[i]) * factor));
  }

  // The three corner holes of a star point: the three holes furthest from its centre.
  function pointCorners(point) {
    const cells = pointCells(point);
    const centre = [0, 1, 2].map((i) => cells.reduce((sum, cube) => sum + cube[i], 0) / cells.length);
    const far = (cube) => Math.hypot(...cube.map((value, i) => value - centre[i]));
    return cells.sort((a, b) => far(b) - far(a)).slice(0, 3);
  }

  // ------------------------------------------------------------------------------------------- seats

  // Okabe–Ito colours, each with the ink that reads on it; a letter on every marble names its player too.
  const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"];
  const INKS = ["#ffffff", "#000000", "#000000", "#000000", "#000000", "#000000"];

  // The players' initials, or their seat numbers when two initials are the same.
  function seatLetters(count, ctx) {
    const initials = [];
    for (let seat = 0; seat < count; seat++) initials.push((ctx.name(seat).trim()[0] || "?").toUpperCase());
    if (new Set(initials).size === count) return initials;
    return initials.map((letter, seat) => String(seat + 1));
  }

  // ------------------------------------------------------------------------------------------- SVG

  const pointsAttr = (points) => points.map(([x, y]) => `${x},${y}`).join(" ");

  function defs() {
    const node = svg("defs", {},
      svg("radialGradient", { id: "cc-shine", cx: "35%", cy: "30%", r: "65%" },
        svg("stop", { offset: "0%", "stop-color": "#fff", "stop-opacity": "0.75" }),
        svg("stop", { offset: "55%", "stop-color": "#fff", "stop-opacity": "0.1" }),
        svg("stop", { offset: "100%", "stop-color": "#000", "stop-opacity": "0.15" })),
      svg("marker", { id: "cc-arrow", viewBox: "0 0 10 10", refX: "7", refY: "5", markerWidth: "5",
        markerHeight: "5", orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#1d1b16" })));
    COLOURS.forEach((colour, seat) => node.append(
      svg("pattern", { id: `cc-stripes-${seat}`, width: "5", height: "5", patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)" },
      svg("rect", { width: "2", height: "5", fill: colour, "fill-opacity": "0.6" }))));
    return node;
  }

  // A marble drawn at [x, y] (also used, in a small SVG, as the players' badges).
  function marbleShape(seat, letter, [x, y], attributes) {
    return svg("g", { class: `cc-marble cc-seat-${seat}`, "data-seat": seat, ...attributes },
      svg("circle", { class: "cc-ball", cx: x, cy: y, r: 0.72 * UNIT, fill: COLOURS[seat] }),
      svg("circle", { cx: x, cy: y, r: 0.72 * UNIT, fill: "url(#cc-shine)" }),
      svg("text", { class: "cc-letter", x, y, fill: INKS[seat], "font-size": 0.85 * UNIT, text: letter }));
  }

  function badge(seat, letter) {
    return svg("svg", { class: "cc-badge", viewBox: `${-UNIT} ${-UNIT} ${2 * UNIT} ${2 * UNIT}`, "aria-hidden": "true",
      focusable: "false" }, marbleShape(seat, letter, [0, 0], { class: `cc-badge-marble cc-seat-${seat}` }));
  }

  // ------------------------------------------------------------------------------------------- state

  const ui = {
    board: null, parts: null, data: null, ctx: null, layout: null, letters: [],
    occupant: new Map(), moves: new Map(), me: null, selected: null,
  };

  function skeleton(board) {
    if (ui.board === board && ui.parts && board.contains(ui.parts.root)) return ui.parts;
    const parts = {
      status: el("p", { class: "cc-status", role: "status" }),
      stage: el("div", { class: "cc-stage" }),
      announce: el("p", { class: "visually-hidden", "aria-live": "polite" }),
      actions: el("div", { class: "cc-actions actions" }),
      scores: el("ul", { class: "cc-scores", "aria-label": _("Scores") }),
      legend: el("p", { class: "cc-legend muted" }),
    };
    parts.root = el("div", { class: "cc", onkeydown: onKey },
      parts.status, parts.stage, parts.announce, parts.actions, parts.scores, parts.legend);
    board.replaceChildren(parts.root);
    ui.board = board;
    ui.parts = parts;
    // The finger-target check depends on the size the star is drawn at: look again when the space changes.
    new ResizeObserver(() => { if (ui.data && ui.data.view && ui.parts === parts) drawActions(parts, ui.data.view); })
      .observe(parts.stage);
    return parts;
  }

  // ------------------------------------------------------------------------------------------- render

  function render(board, data, ctx) {
    const parts = skeleton(board);
    ui.data = data;
    ui.ctx = ctx;
    const view = data && data.view;
    if (!view || !Array.isArray(view.seats)) {
      parts.status.textContent = _("Waiting for the game to start…");
      parts.stage.replaceChildren();
      return;
    }
    const focused = focusedKey();
    const seat = data.seat !== undefined ? data.seat : ctx.seat;
    ui.me = seat !== null && seat !== undefined && view.seats[seat] ? seat : null;
    ui.letters = seatLetters(view.seats.length, ctx);
    ui.layout = makeLayout(view.seats[ui.me === null ? 0 : ui.me].start);
    ui.occupant = new Map();
    view.seats.forEach((summary) => summary.marbles.forEach((cube) => ui.occupant.set(cubeKey(cube), summary.seat)));
    ui.moves = new Map();
    if (ctx.live && ui.me !== null && data.status === "active") {
      for (const move of view.moves || []) {
        const key = cubeKey(move.from);
        if (!ui.moves.has(key)) ui.moves.set(key, []);
        ui.moves.get(key).push(move);
      }
    }
    if (!ui.moves.has(ui.selected)) ui.selected = null;
    drawBoard(parts, view);
    drawControls();
    drawActions(parts, view);
    drawScores(parts, view);
    parts.legend.textContent = _("Solid triangle: where a player starts. Striped triangle: where that player " +
      "must bring all ten marbles. The letter on a marble names its player.");
    restoreFocus(focused);
  }

  function drawBoard(parts, view) {
    const layout = ui.layout;
    const star = [[8, -4, -4], [-4, 8, -4], [-4, -4, 8]];
    const triangles = [star, star.map((cube) => cube.map((value) => -value))]
      .map((corners) => grownTriangle(corners, 6, 1.15).map(layout.project));
    const xs = triangles.flat().map(([x]) => x);
    const ys = triangles.flat().map(([, y]) => y);
    const pad = 0.3 * UNIT;
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad,
      Math.max(...ys) - Math.min(...ys) + 2 * pad];
    const bottomName = ui.me === null ? ui.ctx.name(0) : null;
    const label = ui.me === null
      ? fmt(_("Chinese Checkers board, seen from %(name)s's start at the bottom"), { name: bottomName })
      : _("Chinese Checkers board, your start at the bottom");
    const board = svg("svg", { class: "cc-svg", viewBox: box.map((v) => Math.round(v)).join(" "), role: "group",
      "aria-label": label, tabindex: "-1", "data-focus-key": "board", onclick: onBoardClick },
    defs(),
    svg("g", { class: "cc-ground", "aria-hidden": "true" },
      ...triangles.map((points) => svg("polygon", { class: "cc-star", points: pointsAttr(points) })),
      ...tints(view), ...CELLS.map((cube) => {
        const [x, y] = layout.at(cube);
        return svg("circle", { class: "cc-hole", cx: x, cy: y, r: 0.3 * UNIT });
      })),
    drawLastMove(view.lastMove),
    svg("g", { class: "cc-marbles" }, ...marbles(view)),
    svg("g", { class: "cc-preview", "aria-hidden": "true" }),
    svg("g", { class: "cc-controls" }));
    parts.stage.replaceChildren(board);
    parts.svg = board;
    ui.box = box;
    applyZoom();
  }

  // Small boards (a phone on its side): a hole is a finger's target only if it is at least 24 px across. When the
  // star drawn whole gives less, the first tap zooms in on the region tapped (twice as large) and "Whole board"
  // zooms out again; a move played zooms out.
  const MIN_TARGET_PX = 24;

  function targetPx() {
    const svgBox = ui.parts.svg && ui.parts.svg.getBoundingClientRect();
    if (!svgBox || !svgBox.width || !ui.box) return Infinity;
    const scale = Math.min(svgBox.width / ui.box[2], svgBox.height / ui.box[3]);
    return scale * 1.72 * UNIT;
  }

  function needsZoom() { return ui.moves.size > 0 && targetPx() < MIN_TARGET_PX; }

  function applyZoom() {
    const box = ui.box;
    if (!box || !ui.parts.svg) return;
    if (!ui.zoom) { ui.parts.svg.setAttribute("viewBox", box.map((v) => Math.round(v)).join(" ")); return; }
    const [cx, cy] = ui.zoom;
    const w = box[2] / 2;
    const h = box[3] / 2;
    const x = Math.min(Math.max(cx - w / 2, box[0]), box[0] + box[2] - w);
    const y = Math.min(Math.max(cy - h / 2, box[1]), box[1] + box[3] - h);
    ui.parts.svg.setAttribute("viewBox", [x, y, w, h].map((v) => Math.round(v)).join(" "));
  }

  function zoomAt(event) {
    const point = ui.parts.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(ui.parts.svg.getScreenCTM().inverse());
    ui.zoom = [local.x, local.y];
    applyZoom();
    drawActions(ui.parts, ui.data.view);
    announce(_("Zoomed in: tap your marble, then where it goes."));
  }

  function zoomOut() {
    ui.zoom = null;
    applyZoom();
    drawActions(ui.parts, ui.data.view);
  }

  // Each player's start point tinted in their colour, their target striped in it.
  function tints(view) {
    const shapes = [];
    for (const summary of view.seats) {
      for (const [point, fill] of [[summary.start, COLOURS[summary.seat]], [summary.target, `url(#cc-stripes-${summary.seat})`]]) {
        const corners = grownTriangle(pointCorners(point), 1.5, 0.85).map(ui.layout.project);
        shapes.push(svg("polygon", { class: "cc-point", points: pointsAttr(corners), fill,
          "fill-opacity": fill.startsWith("url") ? null : "0.22", stroke: COLOURS[summary.seat] }));
      }
    }
    return shapes;
  }

  function drawLastMove(last) {
    const layer = svg("g", { class: "cc-last", "aria-hidden": "true" });
    if (!last) return layer;
    const points = [last.from, ...last.path].map(ui.layout.at);
    const [fx, fy] = points[0];
    const [tx, ty] = points[points.length - 1];
    layer.append(
      svg("circle", { class: "cc-last-from", cx: fx, cy: fy, r: 0.62 * UNIT, stroke: COLOURS[last.seat] }),
      svg("polyline", { class: "cc-trail-casing", points: pointsAttr(points) }),
      svg("polyline", { class: "cc-trail", points: pointsAttr(points), "marker-end": "url(#cc-arrow)",
        "data-landings": last.path.length }),
      ...points.slice(1, -1).map(([x, y]) => svg("circle", { class: "cc-landing", cx: x, cy: y, r: 0.18 * UNIT })),
      svg("circle", { class: "cc-last-to", cx: tx, cy: ty, r: 0.98 * UNIT }));
    return layer;
  }

  function marbles(view) {
    const shapes = [];
    for (const summary of view.seats) {
      for (const cube of summary.marbles) {
        const key = cubeKey(cube);
        const controlled = ui.moves.has(key);
        shapes.push(marbleShape(summary.seat, ui.letters[summary.seat], ui.layout.at(cube), {
          "data-cell": key,
          role: controlled ? null : "img",
          "aria-hidden": controlled ? "true" : null,
          "aria-label": controlled ? null : marbleLabel(summary.seat, cube),
        }));
      }
    }
    return shapes;
  }

  function placeWords(cube) {
    const place = ui.layout.places.get(cubeKey(cube));
    return fmt(_("row %(row)s, hole %(hole)s from the left"), place);
  }

  function marbleLabel(seat, cube) {
    if (seat === ui.me) return fmt(_("Your marble at %(place)s"), { place: placeWords(cube) });
    return fmt(_("%(name)s's marble at %(place)s"), { name: ui.ctx.name(seat), place: placeWords(cube) });
  }

  // ------------------------------------------------------------------------------------------- controls

  // The focusable layer on top: your movable marbles, and the selected marble's destinations right after it
  // (so Tab goes from the marble to its destinations).
  function drawControls() {
    const parts = ui.parts;
    if (!parts.svg) return;
    const layer = parts.svg.querySelector(".cc-controls");
    const order = (a, b) => {
      const [ax, ay] = ui.layout.at(a);
      const [bx, by] = ui.layout.at(b);
      return ay - by || ax - bx;
    };
    const origins = [...ui.moves.keys()].map((key) => key.split(",").map(Number)).sort(order);
    const nodes = [];
    for (const origin of origins) {
      const key = cubeKey(origin);
      nodes.push(marbleControl(origin, ui.moves.get(key)));
      if (key === ui.selected) {
        for (const move of [...ui.moves.get(key)].sort((a, b) => order(a.to, b.to))) nodes.push(destinationControl(move));
      }
    }
    layer.replaceChildren(...nodes);
    parts.svg.classList.toggle("cc-choosing", ui.selected !== null);
    drawStatus(parts, ui.data.view);
  }

  function marbleControl(origin, moves) {
    const key = cubeKey(origin);
    const [x, y] = ui.layout.at(origin);
    const selected = key === ui.selected;
    const label = fmt(ngettext("Your marble at %(place)s: %(count)s possible move",
      "Your marble at %(place)s: %(count)s possible moves", moves.length), { place: placeWords(origin), count: moves.length });
    return svg("g", {
      class: `cc-control${selected ? " cc-selected" : ""}`, "data-cell": key, "data-focus-key": `m:${key}`,
      role: "button", tabindex: "0", "aria-pressed": selected ? "true" : "false", "aria-label": label,
      onclick: (event) => { event.stopPropagation(); if (!ui.zoom && event.detail > 0 && needsZoom()) zoomAt(event); else toggleMarble(key); },
      onkeydown: (event) => onActivateKey(event, () => toggleMarble(key)),
    },
    svg("circle", { class: "cc-hit", cx: x, cy: y, r: 0.86 * UNIT }),
    svg("circle", { class: "cc-movable", cx: x, cy: y, r: 0.84 * UNIT }),
    svg("circle", { class: "cc-ring", cx: x, cy: y, r: 0.98 * UNIT }));
  }

  function destinationControl(move) {
    const key = cubeKey(move.to);
    const [x, y] = ui.layout.at(move.to);
    const seat = ui.me;
    const hops = distance(move.from, move.to) === 1 ? 0 : move.path.length;
    const gain = progress(move.to, ui.data.view.seats[seat].start) - progress(move.from, ui.data.view.seats[seat].start);
    const label = fmt(_("Move here: %(place)s, %(how)s, %(distance)s"),
      { place: placeWords(move.to), how: howWords(hops), distance: distanceWords(gain) }) +
      (move.swap ? ` ${fmt(_("(swap with %(name)s's marble)"), { name: ui.ctx.name(ui.occupant.get(key)) })}` : "");
    return svg("g", {
      class: `cc-dest${move.swap ? " cc-swap" : ""}`, "data-cell": key, "data-focus-key": `d:${key}`, "data-hops": hops,
      role: "button", tabindex: "0", "aria-label": label,
      onclick: (event) => { event.stopPropagation(); if (!ui.zoom && event.detail > 0 && needsZoom()) zoomAt(event); else play(move); },
      onkeydown: (event) => onActivateKey(event, () => play(move)),
      onpointerenter: () => preview(move), onpointerleave: () => preview(null),
      onfocus: () => preview(move), onblur: () => preview(null),
    },
    svg("circle", { class: "cc-hit", cx: x, cy: y, r: 0.86 * UNIT }),
    svg("circle", { class: "cc-dest-mark", cx: x, cy: y, r: (move.swap ? 0.9 : 0.62) * UNIT,
      fill: move.swap ? "none" : COLOURS[seat] }),
    svg("circle", { class: "cc-ring", cx: x, cy: y, r: 0.98 * UNIT }));
  }

  function onActivateKey(event, action) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  }

  function toggleMarble(key) {
    ui.selected = ui.selected === key ? null : key;
    drawControls();
    restoreFocus(`m:${key}`);
    if (ui.selected) {
      const count = ui.moves.get(key).length;
      announce(fmt(ngettext("Marble selected: %(count)s destination. Tab to it, Escape to cancel.",
        "Marble selected: %(count)s destinations. Tab to one, Escape to cancel.", count), { count }));
    } else {
      announce(_("Selection cancelled."));
    }
  }

  function play(move) {
    const action = (ui.data.legal || []).find((candidate) => candidate.type === "move" &&
      sameCube(candidate.from, move.from) && sameCube(candidate.to, move.to)) || { type: "move", from: move.from, to: move.to };
    const hadFocus = ui.parts.root.contains(document.activeElement);
    ui.selected = null;
    ui.zoom = null;
    ui.moves = new Map(); // no second move while the server answers
    preview(null);
    drawControls();
    if (hadFocus) ui.parts.svg.focus();
    ui.ctx.act(action);
    // If the server refuses the move (the frame shows why), offer the moves of the unchanged view again.
    const sent = ui.data;
    setTimeout(() => { if (ui.data === sent) render(ui.board, ui.data, ui.ctx); }, 3000);
  }

  function onKey(event) {
    if (event.key !== "Escape" || ui.selected === null) return;
    const key = ui.selected;
    ui.selected = null;
    preview(null);
    drawControls();
    restoreFocus(`m:${key}`);
    announce(_("Selection cancelled."));
  }

  function onBoardClick(event) {
    if (!ui.zoom && event.detail > 0 && needsZoom()) { zoomAt(event); return; }
    if (ui.selected !== null && !event.target.closest(".cc-control, .cc-dest")) {
      ui.selected = null;
      preview(null);
      drawControls();
    }
  }

  // The hop path to a destination, shown while it is hovered or focused.
  function preview(move) {
    const layer = ui.parts.svg && ui.parts.svg.querySelector(".cc-preview");
    if (!layer) return;
    if (!move) { layer.replaceChildren(); return; }
    const points = [move.from, ...move.path].map(ui.layout.at);
    layer.replaceChildren(svg("polyline", { class: "cc-preview-path", points: pointsAttr(points), stroke: COLOURS[ui.me] }),
      ...points.slice(1, -1).map(([x, y]) => svg("circle", { class: "cc-landing", cx: x, cy: y, r: 0.2 * UNIT })));
  }

  function announce(text) { ui.parts.announce.textContent = text; }

  function focusedKey() {
    const active = document.activeElement;
    return ui.parts && ui.parts.root.contains(active) && active.dataset ? active.dataset.focusKey || null : null;
  }

  // Put the focus back on the element with the same key after a redraw (or on the board when it is gone).
  function restoreFocus(key) {
    if (!key) return;
    const target = ui.parts.root.querySelector(`[data-focus-key="${key}"]`) || ui.parts.svg;
    if (target && document.activeElement !== target) target.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------------------------------------- texts

  function drawStatus(parts, view) {
    const data = ui.data;
    const turn = view.turn;
    let text;
    if (data.status === "finished" || view.result) {
      const winners = ui.ctx.winners ? ui.ctx.winners() : null;  // the table's result: a leaver never wins
      const winner = winners && winners.length === 1 ? winners[0]
        : view.result && view.result.winner !== null && view.result.winner !== undefined ? view.result.winner : null;
      text = winner !== null
        ? fmt(_("Game over: %(name)s wins."), { name: ui.ctx.name(winner) })
        : _("Game over: the turn limit is reached.");
    } else if (data.status === "aborted") {
      text = _("This game was stopped.");
    } else if (turn === null || turn === undefined) {
      text = _("Drawing who moves first…");
    } else if (ui.moves.size && ui.selected !== null) {
      text = _("Your turn: choose a highlighted hole (Escape to cancel).");
    } else if (ui.moves.size) {
      text = _("Your turn: choose one of your marbles, then where it goes.");
    } else if (turn === ui.me && ui.ctx.live && view.canPass) {
      text = _("Your turn: none of your marbles can move, so you must pass.");
    } else if (turn === ui.me && ui.ctx.live) {
      text = _("Your turn.");
    } else {
      text = fmt(_("%(name)s's turn."), { name: ui.ctx.name(turn) });
    }
    const round = fmt(_("Round %(round)s of %(max)s"), { round: Math.min(view.round, view.maxTurns), max: view.maxTurns });
    parts.status.replaceChildren(
      turn !== null && turn !== undefined && !view.result ? badge(turn, ui.letters[turn]) : "",
      el("span", { class: "cc-status-text", text }),
      el("span", { class: "cc-round muted", text: round }));
    parts.status.classList.toggle("cc-mine", ui.moves.size > 0 || (turn === ui.me && view.canPass && ui.ctx.live));
  }

  function drawActions(parts, view) {
    const pass = (ui.data.legal || []).find((action) => action.type === "pass");
    const buttons = ui.ctx.live && view.canPass && pass ? [el("button", {
      type: "button", "data-focus-key": "pass", text: _("Pass (no marble can move)"),
      onclick: () => ui.ctx.act(pass),
    })] : [];
    if (ui.zoom) {
      buttons.push(el("button", { type: "button", class: "secondary", "data-focus-key": "zoom-out",
        "data-zoom-out": "", text: _("Whole board"), onclick: zoomOut }));
    } else if (ui.moves.size && ui.parts.svg && targetPx() < MIN_TARGET_PX) {
      buttons.push(el("p", { class: "cc-zoom-note muted", text: _("Tap the board to zoom in on your marbles.") }));
    }
    parts.actions.replaceChildren(...buttons);
  }

  function drawScores(parts, view) {
    parts.scores.replaceChildren(...view.seats.map((summary) => {
      const seat = summary.seat;
      const name = ui.ctx.name(seat);
      const acting = view.turn === seat && !view.result;
      return el("li", { class: `cc-score cc-seat-${seat}${acting ? " cc-to-act" : ""}` },
        badge(seat, ui.letters[seat]),
        el("span", { class: "cc-score-name", title: name, text: seat === ui.me ? fmt(_("%(name)s (you)"), { name }) : name }),
        el("span", { class: "cc-score-value", text: fmt(_("%(score)s / 120"), { score: summary.score }) }),
        el("span", { class: "cc-bar", "aria-hidden": "true" },
          el("span", { style: `width: ${(100 * summary.score) / 120}%; background: ${COLOURS[seat]}` })),
        el("span", { class: "cc-home muted", text: fmt(ngettext("%(home)s of 10 marbles home", "%(home)s of 10 marbles home",
          summary.home), { home: summary.home }) }));
    }));
  }

  function howWords(hops) {
    if (hops === 0) return _("with a step");
    if (hops === 1) return _("with a single hop");
    return fmt(ngettext("in a chain of %(hops)s hop", "in a chain of %(hops)s hops", hops), { hops });
  }

  function distanceWords(rows) {
    if (rows > 0) return fmt(ngettext("%(rows)s row forward", "%(rows)s rows forward", rows), { rows });
    if (rows < 0) return fmt(ngettext("%(rows)s row back", "%(rows)s rows back", -rows), { rows: -rows });
    return _("sideways");
  }

  // One log line per event type of games/chinesecheckers/rules.py.
  function describe(event, ctx) {
    const name = (seat) => ctx.name(seat);
    switch (event.type) {
      case "first_player":
        return fmt(_("%(name)s moves first."), { name: name(event.seat) });
      case "move": {
        const line = fmt(_("%(name)s moves a marble %(distance)s %(how)s (score %(score)s)."), {
          name: name(event.seat), distance: distanceWords(event.delta), how: howWords(event.hops), score: event.score,
        });
        if (event.swappedWith === null || event.swappedWith === undefined) return line;
        return `${line} ${fmt(_("It swaps places with %(name)s's marble."), { name: name(event.swappedWith) })}`;
      }
      case "pass":
        return fmt(_("%(name)s cannot move any marble and passes."), { name: name(event.seat) });
      case "win":
        if (hasLeft(event.seat, ctx)) {  // the computer finished for them: they rank last (turnengine final_result)
          return fmt(_("%(name)s's marbles are home, brought by the computer after they left: they do not win."),
            { name: name(event.seat) });
        }
        return event.reason === "target_filled"
          ? fmt(_("%(name)s's target triangle is full (other players' marbles count too): %(name)s wins!"),
            { name: name(event.seat) })
          : fmt(_("%(name)s has all ten marbles home and wins!"), { name: name(event.seat) });
      case "game_over": {
        const scores = (event.scores || []).map((score, seat) => `${name(seat)} ${score}`).join(", ");
        return event.reason === "max_turns"
          ? fmt(_("The turn limit is reached: the game ends. Scores: %(scores)s."), { scores })
          : fmt(_("The game is over. Scores: %(scores)s."), { scores });
      }
      default:
        return null;
    }
  }

  // ------------------------------------------------------------------------------------------- animation

  const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // The marble travels from its origin through every landing hole, lifting a little on each hop.
  function animate(events) {
    if (reducedMotion() || !ui.parts || !ui.parts.svg || !ui.layout) return;
    for (const event of events) {
      if (event.type !== "move") continue;
      const stops = [event.from, ...event.path];
      travel(event.to, stops, event.hops > 0);
      if (event.swappedWith !== null && event.swappedWith !== undefined) travel(event.from, [event.to, event.from], false);
    }
  }

  function travel(cell, stops, hopping) {
    const marble = ui.parts.svg.querySelector(`.cc-marble[data-cell="${cubeKey(cell)}"]`);
    if (!marble || !marble.animate) return;
    const [ex, ey] = ui.layout.at(cell);
    const offset = (cube) => { const [x, y] = ui.layout.at(cube); return [x - ex, y - ey]; };
    const shift = ([dx, dy], scale) => `translate(${dx}px, ${dy}px) scale(${scale})`;
    const frames = [];
    stops.forEach((cube, index) => {
      if (index > 0 && hopping) {
        const [ax, ay] = offset(stops[index - 1]);
        const [bx, by] = offset(cube);
        frames.push({ transform: shift([(ax + bx) / 2, (ay + by) / 2], 1.3) });
      }
      frames.push({ transform: shift(offset(cube), 1) });
    });
    frames.forEach((frame) => { frame.easing = "ease-in-out"; });
    marble.parentNode.append(marble); // drawn above the marbles it hops over
    marble.classList.add("cc-moving");
    const run = marble.animate(frames, { duration: 300 * (stops.length - 1) });
    run.onfinish = () => marble.classList.remove("cc-moving");
  }

  // The result screen: why it ended; each seat's score out of 120 (the frame shows result.scores).
  function hasLeft(seat, ctx) {
    return (ctx.players ? ctx.players() : []).some((player) => player.seat === seat && player.left);
  }

  function reason(result, ctx) {
    // The seat that finished first may be one whose player left: the computer finished for them, and they rank
    // below everyone who stayed.
    const scores = Object.entries(result.scores || {}).sort((a, b) => b[1] - a[1]);
    const finisher = scores.length ? Number(scores[0][0]) : null;
    if (result.reason !== "max_turns" && (result.left || []).includes(finisher)) {
      return fmt(_("The computer finished first for %(name)s, who had left: a player who left ranks below everyone who stayed."),
        { name: ctx.name(finisher) });
    }
    const first = ctx.name((result.ranking[0] || [])[0]);
    return {
      all_home: fmt(_("%(name)s brought all ten marbles home first."), { name: first }),
      target_filled: fmt(_("%(name)s filled their target triangle first."), { name: first }),
      max_turns: _("The turn limit was reached: the players are ranked by their scores."),
    }[result.reason] || null;
  }

  function scoreTitle() { return _("Score (of 120)"); }

  function score(seat, data) {
    const summary = ((data.view || {}).seats || [])[seat];
    return summary ? fmt(ngettext("%(score)s · %(home)s marble home", "%(score)s · %(home)s marbles home", summary.home),
      { score: summary.score, home: summary.home }) : "";
  }

  Tapete.registerGame("chinesecheckers", { render, describe, animate, reason, score, scoreTitle });
})();
