// The shared table frame: connection, players, game log, chat, result screen and replay stepping.
// Each game registers a renderer that draws its board from the seat's view (docs/protocol.md):
//
//   Tapete.registerGame("perudo", {
//     render(board, data, ctx),   // draw data.view / data.legal into the board element; ctx.act(action) sends
//     describe(event, ctx),       // one log line in words for an event (or null to skip it)
//     animate(events, data, ctx), // optional: play the new events (a reveal, a hop path) after render
//   });
//
// ctx: {seat, live, act(action), name(seat), players, gettext, interpolate}. Strings go through Django's
// JavaScript catalogue (gettext), so the games speak the player's language.
(function () {
  "use strict";
  const renderers = {};
  const _ = window.gettext || ((text) => text);
  const fmt = window.interpolate || ((text, values) => text);

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function fallbackDescribe(event) {
    return Object.entries(event).map(([key, value]) =>
      key === "type" ? value : `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`).join(" · ");
  }

  function formatDuration(ms) {
    const seconds = Math.ceil(ms / 1000);
    if (seconds >= 3600) return fmt(_("%s h %s min"), [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60)]);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  class Table {
    constructor(root) {
      this.root = root;
      this.game = root.dataset.game;
      this.renderer = renderers[this.game] || null;
      this.live = root.dataset.mode !== "replay";
      this.players = [];
      this.version = null;
      this.socket = null;
      this.retry = 500;
      this.data = null;
      this.board = root.querySelector("[data-board]");
      this.ctx = {
        seat: root.dataset.seat === "" ? null : Number(root.dataset.seat),
        live: this.live,
        act: (action) => this.act(action),
        name: (seat) => this.name(seat),
        players: () => this.players,
        el, gettext: _, interpolate: fmt,
      };
    }

    name(seat) {
      const player = this.players.find((p) => p.seat === seat);
      return player ? player.username : fmt(_("Seat %s"), [seat + 1]);
    }

    act(action) {
      if (!this.live || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
      this.showError("");
      this.socket.send(JSON.stringify({ t: "act", v: this.version, d: action }));
    }

    send(kind, data) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) {
        this.socket.send(JSON.stringify({ t: kind, v: this.version, d: data }));
      }
    }

    showError(message) { const box = this.root.querySelector("[data-error]"); if (box) box.textContent = message; }

    renderPlayers() {
      const list = this.root.querySelector("[data-players]");
      if (!list) return;
      const view = (this.data && this.data.view) || {};
      const toAct = view.awaited || view.to_act || [];
      const clock = this.data && this.data.clock;
      list.replaceChildren(...this.players.map((player) => {
        const acting = toAct.includes(player.seat);
        const absent = player.absent || (clock && clock.absent[player.seat]);
        const presence = absent ? _("absent: played automatically") : player.online ? _("online") : _("reconnecting");
        const label = [player.username, player.seat === this.ctx.seat ? _("you") : null, presence,
          acting ? _("to play") : null].filter(Boolean).join(", ");
        return el("li", {
          class: `player seat-${player.seat} ${player.online ? "online" : "offline"}${acting ? " to-act" : ""}${absent ? " absent" : ""}`,
          "aria-label": label, "data-seat": player.seat,
        }, el("span", { class: "presence", "aria-hidden": "true" }),
        el("span", { class: "player-name", text: player.username }),
        player.rating !== null && player.rating !== undefined ? el("span", { class: "rating", text: `${player.rating}`, title: _("rating") }) : null,
        player.seat === this.ctx.seat ? el("span", { class: "you", text: ` (${_("you")})` }) : null,
        absent ? el("span", { class: "absent-badge", text: _("absent") }) : null,
        this.live && player.seat !== this.ctx.seat && this.root.dataset.reportUrl && !player.bot
          ? el("a", { class: "report-link", href: `${this.root.dataset.reportUrl.replace("__user__", encodeURIComponent(player.username))}?match=${this.root.dataset.matchId}&move=${this.version || ""}`,
            text: "⚑", title: fmt(_("Report %s"), [player.username]), "aria-label": fmt(_("Report %s"), [player.username]) })
          : null,
        acting ? el("span", { class: "turn-badge", text: _("to play") }) : null,
        clock && clock.kind !== "none" ? el("span", { class: "clock", "data-clock-seat": player.seat, "aria-hidden": "true" }) : null);
      }));
      this.renderSeatControls();
      this.tickClocks();
    }

    // Clocks count down between frames from the server's deadlines, corrected by the server's own time.
    remainingMs(seat) {
      const clock = this.data && this.data.clock;
      if (!clock || !this.live) return null;
      const deadline = clock.deadlines[String(seat)];
      if (deadline === undefined) return clock.kind === "realtime" ? clock.bank_ms[seat] : null;
      return Math.max(0, deadline - (clock.server_ms + (Date.now() - this.receivedAt)));
    }

    tickClocks() {
      const clock = this.data && this.data.clock;
      this.root.querySelectorAll("[data-clock-seat]").forEach((node) => {
        const seat = Number(node.dataset.clockSeat);
        const left = this.remainingMs(seat);
        const running = clock && clock.deadlines[String(seat)] !== undefined;
        node.textContent = left === null ? "" : formatDuration(left);
        node.classList.toggle("running", Boolean(running));
        node.classList.toggle("short", Boolean(running) && left < 15000);
        if (running && seat === this.ctx.seat && left < 15000 && !this.warned) {
          this.warned = true;
          this.announce(_("Hurry: your time is running out."));
        }
      });
    }

    // Optional sound (off by default, remembered per browser): a short tone when it becomes your turn.
    soundOn() { return window.localStorage && localStorage.getItem("tapete-sound") === "on"; }

    bindSoundToggle() {
      const toggle = this.root.querySelector("[data-sound]");
      if (!toggle) return;
      toggle.checked = this.soundOn();
      toggle.addEventListener("change", () => localStorage.setItem("tapete-sound", toggle.checked ? "on" : "off"));
    }

    chime() {
      if (!this.soundOn() || !window.AudioContext) return;
      const audio = this.audio || (this.audio = new AudioContext());
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    }

    announce(message) { const box = this.root.querySelector("[data-announce]"); if (box) box.textContent = message; }

    // Seat controls: come back after being marked absent, leave a running game, end a table everyone else left.
    renderSeatControls() {
      const box = this.root.querySelector("[data-seat-controls]");
      if (!box) return;
      const clock = this.data && this.data.clock;
      const seat = this.ctx.seat;
      if (!this.live || seat === null || !clock || this.data.status !== "active") { box.replaceChildren(); return; }
      const others = this.players.filter((p) => p.seat !== seat);
      const buttons = [];
      if (clock.absent[seat]) {
        buttons.push(el("button", { type: "button", text: _("I'm back: stop playing for me"), onclick: () => this.send("back", {}) }));
      } else {
        buttons.push(el("button", { type: "button", class: "secondary", text: _("Leave the game"), onclick: () => {
          if (window.confirm(_("Leave this game? Your seat will be played automatically."))) this.send("leave", {});
        } }));
      }
      if (others.length && others.every((p) => clock.absent[p.seat]) && !clock.absent[seat]) {
        buttons.push(el("button", { type: "button", text: _("End the table: everyone else has left"), onclick: () => this.send("end", {}) }));
      }
      box.replaceChildren(...buttons);
    }

    appendLog(events, reset) {
      const log = this.root.querySelector("[data-log]");
      if (!log) return;
      if (reset) log.replaceChildren();
      for (const event of events) {
        const line = this.renderer ? this.renderer.describe(event, this.ctx) : fallbackDescribe(event);
        if (line) log.append(el("li", { text: line }));
      }
      log.scrollTop = log.scrollHeight;
    }

    appendChat(line) {
      const chat = this.root.querySelector("[data-chat]");
      if (!chat) return;
      const muted = (this.muted || []).includes(line.user);
      const own = line.user === this.root.dataset.username;
      const reportUrl = this.root.dataset.reportUrl
        ? `${this.root.dataset.reportUrl.replace("__user__", encodeURIComponent(line.user))}?match=${this.root.dataset.matchId}&move=${this.version || ""}&chat=${line.id}`
        : null;
      // Text nodes only: a chat line is never interpreted as HTML.
      chat.append(el("li", { class: `chat-line${line.channel === "spectators" ? " spectator-line" : ""}`, hidden: muted, "data-chat-id": line.id },
        el("strong", { text: `${line.user}${line.channel === "spectators" ? ` (${_("spectator")})` : ""}: ` }), line.text,
        own ? null : el("span", { class: "chat-tools" },
          el("button", { type: "button", class: "link", text: _("mute"), "aria-label": fmt(_("Hide %s's chat"), [line.user]),
            onclick: () => this.send("mute", { username: line.user }) }),
          reportUrl ? el("a", { href: reportUrl, text: _("report"), "aria-label": fmt(_("Report %s"), [line.user]) }) : null)));
      chat.scrollTop = chat.scrollHeight;
    }

    renderResult() {
      const box = this.root.querySelector("[data-result]");
      if (!box) return;
      const data = this.data;
      if (!data || data.status !== "finished" || !data.result) { box.hidden = true; return; }
      const scores = data.result.scores || {};
      box.replaceChildren(
        el("h2", { text: _("Game over") }),
        el("ol", { class: "ranking" }, ...data.result.ranking.map((group) => el("li", {},
          group.map((seat) => this.name(seat) + (seats(scores, seat))).join(", ")))),
        ...(this.root.dataset.replayUrl ? [el("a", { class: "button secondary", href: this.root.dataset.replayUrl,
          text: _("Watch the replay") })] : []),
      );
      box.hidden = false;
      function seats(table, seat) { return table[seat] !== undefined ? ` (${table[seat]})` : ""; }
    }

    renderFairness() {
      const hash = this.root.querySelector("[data-seed-hash]");
      if (hash && this.data) hash.textContent = this.data.seed_hash;
      const seed = this.root.querySelector("[data-seed]");
      if (seed && this.data && this.data.seed) { seed.textContent = this.data.seed; seed.closest("[hidden]")?.removeAttribute("hidden"); }
    }

    render(newEvents) {
      const data = this.data;
      if (this.renderer) {
        this.renderer.render(this.board, data, this.ctx);
        if (newEvents.length && this.renderer.animate) this.renderer.animate(newEvents, data, this.ctx);
      } else {
        this.board.replaceChildren(el("pre", { class: "state-view", text: JSON.stringify(data.view, null, 2) }),
          el("div", { class: "actions" }, ...(data.legal || []).map((action) =>
            el("button", { type: "button", text: fallbackDescribe(action), onclick: () => this.act(action) }))));
      }
      this.renderPlayers();
      this.renderResult();
      this.renderFairness();
    }

    onFrame(frame) {
      this.root.dispatchEvent(new CustomEvent("tapete:frame", { detail: frame }));  // moderation-notices.js
      if (frame.t === "view") {
        if (frame.d.snapshot) {
          this.players = frame.d.players || this.players;
          this.muted = frame.d.muted || [];
          this.root.querySelector("[data-chat]")?.replaceChildren();
          (frame.d.chat || []).forEach((line) => this.appendChat(line));
        } else if (this.version !== null && frame.v !== this.version + 1) {
          this.send("sync", {});  // we missed a version: ask for a fresh snapshot
          return;
        }
        const wasMyTurn = this.myTurn;
        this.version = frame.v;
        this.data = frame.d;
        this.receivedAt = Date.now();
        this.warned = false;
        this.myTurn = this.ctx.seat !== null && ((frame.d.view || {}).awaited || []).includes(this.ctx.seat);
        if (this.myTurn && !wasMyTurn && !frame.d.snapshot) this.chime();
        this.appendLog(frame.d.events || [], Boolean(frame.d.snapshot));
        this.render(frame.d.snapshot ? [] : frame.d.events || []);
      } else if (frame.t === "presence") {
        this.players = frame.d.players;
        if (this.data && this.data.clock) this.data.clock.absent = this.players.map((p) => Boolean(p.absent));
        this.renderPlayers();
      } else if (frame.t === "chat") {
        this.appendChat(frame.d);
      } else if (frame.t === "muted") {
        this.muted = frame.d.muted;
        this.send("sync", {});
      } else if (frame.t === "error") {
        this.showError(frame.d.message);
        if (frame.d.code === "stale") this.send("sync", {});
      } else if (frame.t === "lobby") {
        this.send("sync", {});
      }
    }

    connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      this.socket = new WebSocket(scheme + location.host + this.root.dataset.ws);
      this.socket.addEventListener("open", () => { this.retry = 500; this.showError(""); });
      this.socket.addEventListener("message", (message) => this.onFrame(JSON.parse(message.data)));
      this.socket.addEventListener("close", (event) => {
        if (event.code === 4403) {  // suspended or banned: moderation-notices.js says why; no reconnecting
          this.root.dispatchEvent(new CustomEvent("tapete:closed", { detail: { code: event.code, reason: event.reason } }));
          return;
        }
        // 4401 not logged in, 4404 no such table: retrying would not help. The error frame sent before the close
        // already showed why (docs/protocol.md, close codes).
        if ([4401, 4404].includes(event.code)) return;
        if (event.code !== 4429) this.showError(_("Connection lost, reconnecting…"));
        setTimeout(() => this.connect(), this.retry);
        this.retry = Math.min(this.retry * 2, 10000);
      });
      const form = this.root.querySelector("[data-chat-form]");
      if (form && !form.dataset.bound) {
        form.dataset.bound = "1";
        form.addEventListener("submit", (event) => {
          event.preventDefault();
          const input = form.querySelector("input");
          if (input.value.trim()) this.send("chat", { text: input.value });
          input.value = "";
        });
      }
    }

    // Replay: fetch the view of one step for the chosen seat and render it with the same renderer.
    startReplay() {
      this.players = JSON.parse(this.root.dataset.players || "[]");
      const slider = this.root.querySelector("[data-step]");
      const seatPicker = this.root.querySelector("[data-replay-seat]");
      const label = this.root.querySelector("[data-step-label]");
      const load = () => {
        const step = Number(slider.value);
        const seat = seatPicker ? seatPicker.value : (this.root.dataset.seat || "");
        fetch(`${this.root.dataset.replayData}?step=${step}&seat=${seat}`)
          .then((response) => response.json())
          .then((data) => {
            this.ctx.seat = data.seat;
            this.data = data;
            label.textContent = fmt(_("Step %s of %s"), [data.step, data.total]);
            slider.max = data.total;
            this.appendLog(data.events, true);
            this.render(data.new_events || []);
          });
      };
      const move = (delta) => { slider.value = Math.max(1, Math.min(Number(slider.max), Number(slider.value) + delta)); load(); };
      this.root.querySelector("[data-prev]").addEventListener("click", () => move(-1));
      this.root.querySelector("[data-next]").addEventListener("click", () => move(1));
      this.root.querySelector("[data-first]").addEventListener("click", () => move(-1e9));
      this.root.querySelector("[data-last]").addEventListener("click", () => move(1e9));
      slider.addEventListener("input", load);
      if (seatPicker) seatPicker.addEventListener("change", load);
      document.addEventListener("keydown", (event) => {
        if (event.target.closest("input, select, textarea")) return;
        if (event.key === "ArrowLeft") move(-1);
        if (event.key === "ArrowRight") move(1);
      });
      load();
    }
  }

  window.Tapete = {
    registerGame(key, renderer) { renderers[key] = renderer; },
    el,
    start() {
      document.querySelectorAll("[data-table]").forEach((root) => {
        const table = new Table(root);
        if (table.live) {
          table.bindSoundToggle();
          table.connect();
          setInterval(() => table.tickClocks(), 250);
        } else {
          table.startReplay();
        }
      });
    },
  };
  document.addEventListener("DOMContentLoaded", () => window.Tapete.start());
})();
