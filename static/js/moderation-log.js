// The moderators' match page (moderation/admin_matches.py): the action log in the same sentences as the players'
// game log, from the game's own describe() (its board.js), with every seat's events, hidden ones included, the
// connection lines (table.js's engineNotice), and the steps the computer played for an absent player marked.
// Loaded after table.js and before the game's board.js (deferred scripts run in order), so that it sees the
// renderer the board registers.
(function () {
  "use strict";
  const renderers = {};
  const register = window.Tapete.registerGame;
  window.Tapete.registerGame = (key, renderer) => { renderers[key] = renderer; register(key, renderer); };

  function describeAll() {
    const list = document.querySelector("[data-moderation-log]");
    if (!list) return;
    const rows = JSON.parse(document.getElementById("moderation-log-data").textContent);
    const players = JSON.parse(document.getElementById("moderation-log-players").textContent);
    const renderer = renderers[list.dataset.game];
    const { el, gettext: _, interpolate: fmt } = window.Tapete.kit;
    const name = (seat) => (players.find((p) => p.seat === seat) || {}).username || fmt(_("Seat %s"), [seat + 1]);
    const ctx = { seat: null, live: false, act() {}, name, players: () => players, ...window.Tapete.kit };
    const lines = [];
    for (const row of rows) {
      // A connection line has no step; a step the computer played for an absent player says so.
      let who = row.seat < 0 ? _("chance") : name(row.seat);
      if (row.computer) who = fmt(_("%s, played by the computer"), [who]);
      const step = row.notice ? "—" : row.step;
      for (const event of row.events) {
        const text = window.Tapete.engineNotice(event, name(event.seat))
          || (renderer && renderer.describe(event, ctx)) || JSON.stringify(event);
        const css = [row.notice ? "notice" : "", row.computer ? "computer" : ""].join(" ").trim();
        lines.push(el("li", { class: css || null, "data-computer": row.computer ? "" : null },
          el("span", { class: "step", text: `${step} · ${who} · ` }), text));
      }
    }
    list.replaceChildren(...lines);
  }
  document.addEventListener("DOMContentLoaded", describeAll);
})();
