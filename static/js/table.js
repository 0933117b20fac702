// The shared table frame: connection, players, game log, chat, result screen and replay stepping.
// Each game registers a renderer that draws its board from the seat's view (docs/protocol.md):
//
//   Tapete.registerGame("perudo", {
//     render(board, data, ctx),   // draw data.view / data.legal into the board element; ctx.act(action) sends
//     describe(event, ctx),       // one log line in words for an event (or null to skip it)
//     animate(events, data, ctx), // optional: play the new events (a reveal, a hop path) after render
//     reason(result, ctx),        // optional: why the game ended, in words, for the result screen
//     score(seat, data, ctx),     // optional: that seat's score or what it had left, for the result screen
//   });
//
// ctx: {seat, live, act(action), name(seat), players, winners(), busy()} and the kit every board draws and speaks
// with, also Tapete.kit (a board takes it once, at the top of its script, for the helpers no call hands ctx to:
// const { el, svg, gettext: _, ngettext, interpolate: fmt } = Tapete.kit;):
//   el(tag, attributes, ...children)    an HTML element: "class", "text" (its text), "on<event>" (a listener) and
//                                        any other attribute; null, undefined and false attributes and children
//                                        are left out
//   svg(tag, attributes, ...children)   the same, an SVG element
//   gettext(text), ngettext(singular, plural, count)
//                                        Django's JavaScript catalogue (/jsi18n/), so the games speak the player's
//                                        language (the text as it is where the catalogue is missing)
//   interpolate(text, values)           "%s" from an array, "%(name)s" from an object (Django's interpolate)
// A board holds no timers of its own for the controls: the frame holds them while an action is in flight.
//
// The frame owns the page layout for every game (static/css/table.css): the board gets all the space below the
// players' bar and sizes itself to it (container queries on .board-area), the log, chat and fairness panel sit in
// a side column or a drawer, the result is a layer over the board. It also owns what every game needs the same
// way: presence in words ("reconnecting…", "disconnected since 1:05"), the clocks (paused during a reveal),
// errors that fade, one action in flight at a time, the result screen with "Play again".
(function () {
  "use strict";
  const renderers = {};
  const SVG_NS = "http://www.w3.org/2000/svg";
  const absent = (value) => value === null || value === undefined || value === false;

  // --- the kit (header) ---------------------------------------------------------------------------------------
  const _ = window.gettext || ((text) => text);
  const ngettext = window.ngettext || ((singular, plural, count) => (count === 1 ? singular : plural));
  const djangoInterpolate = window.interpolate || ((text, values, named) => (named
    ? text.replace(/%\((\w+)\)s/g, (match, key) => String(values[key]))
    : text.replace(/%s/g, (() => { let next = 0; return () => String(values[next++]); })())));
  const fmt = (text, values) => djangoInterpolate(text, values, !Array.isArray(values));

  function fill(node, attributes, children) {
    for (const [key, value] of Object.entries(attributes || {})) {
      if (absent(value)) continue;
      if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      // Through the CSSOM: a style attribute is inline style, which the Content-Security-Policy refuses.
      else if (key === "style") node.style.cssText = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (!absent(child)) node.append(child);
    return node;
  }

  function el(tag, attributes, ...children) { return fill(document.createElement(tag), attributes, children); }
  function svg(tag, attributes, ...children) { return fill(document.createElementNS(SVG_NS, tag), attributes, children); }

  const kit = Object.freeze({ el, svg, gettext: _, ngettext, interpolate: fmt });

  function fallbackDescribe(event) {
    return Object.entries(event).map(([key, value]) =>
      key === "type" ? value : `${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`).join(" · ");
  }

  function formatDuration(ms) {
    const seconds = Math.ceil(ms / 1000);
    if (seconds >= 3600) return fmt(_("%s h %s min"), [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60)]);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  const RECONNECTING_MS = 5000;  // "reconnecting…" this long after the last socket closed, then "disconnected since"
  const ERROR_FADE_MS = 6000;
  const IN_FLIGHT_MS = 5000;  // an action unanswered this long releases the controls again

  function ordinal(place) { return fmt(_("%s."), [place]); }

  // Quick chat (turnengine/quick_chat.py holds the same keys): a line travels as its key and reads in each reader's
  // own language. Reactions are an emoji, with words for screen readers.
  const QUICK_PHRASES = {
    hello: _("Hello!"), gl: _("Good luck!"), gg: _("Well played!"), thanks: _("Thanks!"),
    oops: _("Oops!"), wow: _("Wow!"), think: _("Let me think…"), bye: _("Bye!"),
  };
  const QUICK_REACTIONS = { clap: ["👏", _("Applause")], laugh: ["😂", _("Laughter")], wink: ["😉", _("Wink")], sad: ["😢", _("Sad")] };
  function quickText(phrase) {
    if (QUICK_PHRASES[phrase]) return QUICK_PHRASES[phrase];
    return QUICK_REACTIONS[phrase] ? QUICK_REACTIONS[phrase][0] : null;
  }

  // The engine's own log lines (timeouts, absences, disconnections), the same for every game; ``who`` is the
  // seat's name. Also the moderators' match page's (moderation-log.js).
  function engineNotice(event, who) {
    switch (event.type) {
      case "seat_timeout": return fmt(_("%s ran out of time: the computer played for them."), [who]);
      case "seat_autoplayed": return fmt(_("%s is still disconnected: the computer played for them."), [who]);
      case "seat_absent": return fmt(_("%s is marked absent: the computer plays for them until they come back."), [who]);
      case "disconnected": return fmt(_("%s lost the connection."), [who]);
      case "reconnected": return event.back ? fmt(_("%s is back and takes the seat again."), [who])
        : event.away_s != null ? fmt(_("%s is connected again after %s away."), [who, formatDuration(event.away_s * 1000)])
        : fmt(_("%s is connected again."), [who]);
      case "left": return fmt(_("%s left the game: the computer plays for them."), [who]);
      case "back": return fmt(_("%s is back and takes the seat again."), [who]);
      default: return null;
    }
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
      this.inFlight = null;
      this.board = root.querySelector("[data-board]");
      this.ctx = {
        seat: root.dataset.seat === "" ? null : Number(root.dataset.seat),
        live: this.live,
        act: (action) => this.act(action),
        name: (seat) => this.name(seat),
        players: () => this.players,
        winners: () => (this.data && this.data.result ? this.data.result.ranking[0] || [] : null),
        busy: () => this.inFlight !== null,
        ...kit,
      };
    }

    name(seat) {
      const player = this.players.find((p) => p.seat === seat);
      return player ? player.username : fmt(_("Seat %s"), [seat + 1]);
    }

    // A computer player's or a guest's badge after their name (players' chips, the result table).
    kindBadge(player, attributes = {}) {
      if (!player || !(player.bot || player.guest)) return null;
      const kind = player.bot ? _("computer") : _("guest");
      return el("span", { class: "player-kind", "data-kind": player.bot ? "computer" : "guest", text: kind, title: kind,
        ...attributes });
    }

    // One action in flight at a time: the board's controls are held until the answer (a new view or an error).
    act(action) {
      if (!this.live || !this.socket || this.socket.readyState !== WebSocket.OPEN || this.inFlight) return;
      this.showError("");
      this.hold(true);
      this.socket.send(JSON.stringify({ t: "act", v: this.version, d: action }));
    }

    hold(on) {
      clearTimeout(this.inFlight);
      this.inFlight = on ? setTimeout(() => this.hold(false), IN_FLIGHT_MS) : null;
      if (on) this.board.setAttribute("aria-busy", "true");
      else this.board.removeAttribute("aria-busy");
    }

    send(kind, data) {
      if (this.socket && this.socket.readyState === WebSocket.OPEN) {
        this.socket.send(JSON.stringify({ t: kind, v: this.version, d: data }));
      }
    }

    // Errors show as a toast over the board, fade after a few seconds, and the next view clears them.
    showError(message) {
      const box = this.root.querySelector("[data-error]");
      if (!box) return;
      clearTimeout(this.errorTimer);
      box.classList.remove("fading");
      box.textContent = message;
      if (message) {
        this.errorTimer = setTimeout(() => {
          box.classList.add("fading");
          this.errorTimer = setTimeout(() => { box.textContent = ""; box.classList.remove("fading"); }, 450);
        }, ERROR_FADE_MS);
      }
    }

    serverNow() {
      const clock = this.data && this.data.clock;
      return clock ? clock.server_ms + (Date.now() - this.clockAt) : Date.now();
    }

    // How a player's connection reads: nothing when online; "reconnecting…" for the first seconds after their
    // last socket closed, then "disconnected since m:ss"; absent and left say so.
    connectionWords(player) {
      const clock = this.data && this.data.clock;
      if (player.left) return _("left the game");
      if (player.absent || (clock && clock.absent[player.seat])) return _("absent: played by the computer");
      if (player.online || player.bot) return "";
      if (player.offline_since === null || player.offline_since === undefined) return _("offline");
      const away = Math.max(0, this.serverNow() - player.offline_since);
      const words = away < RECONNECTING_MS ? _("reconnecting…") : fmt(_("disconnected since %s"), [formatDuration(away)]);
      const grace = clock && clock.kind === "realtime" && clock.grace_ms ? clock.grace_ms - away : null;
      const awaited = clock && clock.deadlines[String(player.seat)] !== undefined;
      if (grace !== null && awaited && this.data.status === "active") {
        return grace > 0 ? `${words} · ${fmt(_("the computer plays in %s"), [formatDuration(grace)])}`
          : `${words} · ${_("played by the computer")}`;
      }
      return words;
    }

    renderPlayers() {
      const list = this.root.querySelector("[data-players]");
      if (!list) return;
      const view = (this.data && this.data.view) || {};
      const active = !this.data || this.data.status === "active";
      const toAct = active ? view.awaited || view.to_act || [] : [];
      const clock = this.data && this.data.clock;
      list.replaceChildren(...this.players.map((player) => {
        const acting = toAct.includes(player.seat);
        const absent = player.absent || (clock && clock.absent[player.seat]);
        const offline = !player.online && !player.bot;
        const words = this.live ? this.connectionWords(player) : "";
        const kind = player.bot ? _("computer") : player.guest ? _("guest") : null;
        const label = [player.username, kind, player.seat === this.ctx.seat ? _("you") : null,
          player.rating !== null && player.rating !== undefined ? fmt(_("rating %s"), [player.rating]) : null,
          words || (this.live ? _("online") : null), acting ? _("to play") : null].filter(Boolean).join(", ");
        const classes = ["player", offline ? "offline" : "online", acting ? "to-act" : "",
          player.seat === this.ctx.seat ? "me" : "",
          absent ? "absent" : "", player.left ? "left" : ""].filter(Boolean).join(" ");
        return el("li", { class: classes, "data-seat": player.seat },
          el("span", { class: "visually-hidden", "data-player-label": "", text: label }),
          el("span", { class: "presence", "aria-hidden": "true" }),
          el("span", { class: "player-name", "aria-hidden": "true", text: player.username, title: player.username }),
          this.kindBadge(player, { "aria-hidden": "true" }),
          player.seat === this.ctx.seat ? el("span", { class: "you", "aria-hidden": "true", text: `(${_("you")})` }) : null,
          player.rating !== null && player.rating !== undefined
            ? el("span", { class: "rating", "aria-hidden": "true", text: `${player.rating}`, title: _("rating") }) : null,
          el("span", { class: "conn", "aria-hidden": "true", "data-conn-seat": player.seat, text: words }),
          this.live && player.seat !== this.ctx.seat && this.root.dataset.reportUrl && !player.bot
            ? el("a", { class: "report-link", href: `${this.root.dataset.reportUrl.replace("__user__", encodeURIComponent(player.username))}?match=${this.root.dataset.matchId}&move=${this.version || ""}`,
              text: "⚑", title: fmt(_("Report %s"), [player.username]), "aria-label": fmt(_("Report %s"), [player.username]) })
            : null,
          acting ? el("span", { class: "turn-badge", "aria-hidden": "true" }, "▶", el("span", { class: "turn-words", text: ` ${_("to play")}` })) : null,
          clock && clock.kind !== "none" && active
            ? el("span", { class: "clock", "data-clock-seat": player.seat, "aria-hidden": "true" }) : null);
      }));
      this.renderSeatControls();
      this.renderGraceNote();
      this.tickClocks();
    }

    renderGraceNote() {
      const note = this.root.querySelector("[data-grace-note]");
      const clock = this.data && this.data.clock;
      if (!note) return;
      const shown = this.live && clock && clock.kind === "realtime" && clock.grace_ms && this.data.status === "active";
      note.hidden = !shown;
      if (shown) {
        note.textContent = fmt(_("If a player disconnects, the computer plays for them after %s, until they are back."),
          [formatDuration(clock.grace_ms)]);
      }
    }

    // Clocks count down between frames from the server's deadlines, corrected by the server's own time. A clock
    // whose start lies ahead (the reveal pause the engine gives after a Dudo or a challenge) shows as paused.
    remainingMs(seat) {
      const clock = this.data && this.data.clock;
      if (!clock || !this.live) return null;
      const deadline = clock.deadlines[String(seat)];
      if (deadline === undefined) return clock.kind === "realtime" ? clock.bank_ms[seat] : null;
      const since = (clock.since || [])[seat];
      const now = this.serverNow();
      if (since && now < since) return deadline - since;
      return Math.max(0, deadline - now);
    }

    tickClocks() {
      const clock = this.data && this.data.clock;
      const now = this.serverNow();
      this.root.querySelectorAll("[data-clock-seat]").forEach((node) => {
        const seat = Number(node.dataset.clockSeat);
        const left = this.remainingMs(seat);
        const since = clock && (clock.since || [])[seat];
        const started = clock && clock.deadlines[String(seat)] !== undefined;
        const paused = Boolean(started && since && now < since);
        const running = started && !paused;
        node.textContent = left === null ? "" : formatDuration(left);
        node.classList.toggle("running", Boolean(running));
        node.classList.toggle("paused", paused);
        node.classList.toggle("short", Boolean(running) && left < 15000);
        if (running && seat === this.ctx.seat && left < 15000 && !this.warned) {
          this.warned = true;
          this.announce(_("Hurry: your time is running out."));
        }
      });
      if (this.live && this.data && this.canClaim() !== Boolean(this.claimable)) this.renderSeatControls();
      this.root.querySelectorAll("[data-conn-seat]").forEach((node) => {
        const player = this.players.find((p) => p.seat === Number(node.dataset.connSeat));
        if (player && this.live) node.textContent = this.connectionWords(player);
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

    // A real-time table's turn while its tab is hidden: a browser notification, if the player turned them on
    // ("Your move" page). Turn-based tables are notified by static/js/alerts.js from the lobby socket.
    notifyTurn() {
      const words = document.getElementById("turn-alerts");
      if (!document.hidden || !words || !("realtime" in this.root.dataset)) return;
      if (!("Notification" in window) || Notification.permission !== "granted") return;
      const id = this.root.dataset.matchId;
      const notification = new Notification(words.dataset.notificationTitle, {
        body: words.dataset.notificationBody.replace("__ID__", id), tag: "tapete-turn-" + id,
      });
      notification.addEventListener("click", () => { window.focus(); notification.close(); });
    }

    announce(message) { const box = this.root.querySelector("[data-announce]") || this.ensureAnnouncer(); box.textContent = message; }

    ensureAnnouncer() {
      const box = el("div", { class: "visually-hidden", "data-announce": "", "aria-live": "assertive" });
      this.root.append(box);
      return box;
    }

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
        buttons.push(el("button", { type: "button", "data-back": "", text: _("I'm back: stop playing for me"), onclick: () => this.send("back", {}) }));
      } else {
        buttons.push(el("button", { type: "button", class: "secondary", "data-leave": "", text: _("Leave"),
          title: _("Leave the game"), "aria-label": _("Leave the game"), onclick: () => {
            if (window.confirm(_("Leave this game? Your seat will be played automatically."))) this.send("leave", {});
          } }));
      }
      if (others.length && others.every((p) => clock.absent[p.seat]) && !clock.absent[seat]) {
        buttons.push(el("button", { type: "button", text: _("End the table: everyone else has left"), onclick: () => this.send("end", {}) }));
      }
      this.claimable = this.canClaim();
      const controls = [...buttons];
      if (this.claimable) {
        controls.unshift(el("p", { class: "claim-offer", "data-claim-offer": "", role: "status",
          text: fmt(_("%s has been away longer than the grace. You may claim the win, or keep waiting for them."),
            [this.name(others[0].seat)]) }),
        el("button", { type: "button", "data-claim": "", text: _("Claim the win"), onclick: () => this.send("claim", {}) }));
      }
      box.replaceChildren(...controls);
    }

    // A two-player ranked game whose opponent left, is absent, or has been disconnected past the grace: the one who
    // stayed may claim the win (the server decides: "claim_not_allowed" otherwise).
    canClaim() {
      const clock = this.data && this.data.clock;
      const seat = this.ctx.seat;
      if (!("ranked" in this.root.dataset) || !clock || seat === null || this.players.length !== 2) return false;
      if (this.data.status !== "active" || clock.absent[seat]) return false;
      const other = this.players.find((p) => p.seat !== seat);
      if (!other) return false;
      if (other.left || clock.absent[other.seat]) return true;
      if (other.online || other.offline_since === null || other.offline_since === undefined) return false;
      return clock.kind === "realtime" && clock.grace_ms > 0 && this.serverNow() - other.offline_since >= clock.grace_ms;
    }

    // Who watches: the count, and the logged-in spectators' names (sent when one comes or goes, not per move).
    renderSpectators() {
      const box = this.root.querySelector("[data-spectators]");
      if (!box) return;
      const info = this.spectators;
      box.hidden = !info || !info.count;
      if (box.hidden) return;
      const count = fmt(ngettext("%s watching", "%s watching", info.count), [info.count]);
      box.querySelector("[data-spectator-count]").textContent = count;
      box.querySelector("[data-spectator-number]").textContent = String(info.count);  // phones: the eye and the number
      box.querySelector("summary").setAttribute("aria-label", count);
      const visitors = info.count - info.users.length - info.more;
      const names = [...info.users];
      if (info.more) names.push(fmt(ngettext("%s more", "%s more", info.more), [info.more]));
      if (visitors > 0) names.push(fmt(ngettext("%s visitor", "%s visitors", visitors), [visitors]));
      box.querySelector("[data-spectator-names]").textContent = names.join(", ");
    }

    // Spectators of a delayed ranked table see it some moves late: say so where "You are watching." is.
    renderDelay() {
      const note = this.root.querySelector("[data-watching]");
      if (!note || !this.data) return;
      note.textContent = this.data.delay
        ? fmt(ngettext("You are watching, %s move late.", "You are watching, %s moves late.", this.data.delay), [this.data.delay])
        : _("You are watching.");
    }

    describeNotice(event) {
      return engineNotice(event, this.name(event.seat));
    }

    appendLog(events, reset) {
      const log = this.root.querySelector("[data-log]");
      if (!log) return;
      if (reset) log.replaceChildren();
      for (const event of events) {
        const notice = this.describeNotice(event);
        const line = notice || (this.renderer ? this.renderer.describe(event, this.ctx) : fallbackDescribe(event));
        if (line) log.append(el("li", { class: notice ? "notice" : null, text: line }));
      }
      log.scrollTop = log.scrollHeight;
    }

    appendChat(line, live) {
      const chat = this.root.querySelector("[data-chat]");
      if (!chat) return;
      const muted = (this.muted || []).includes(line.user);
      const own = line.user === this.root.dataset.username;
      const reportUrl = this.root.dataset.reportUrl
        ? `${this.root.dataset.reportUrl.replace("__user__", encodeURIComponent(line.user))}?match=${this.root.dataset.matchId}&move=${this.version || ""}&chat=${line.id}`
        : null;
      // Text nodes only: a chat line is never interpreted as HTML.
      chat.append(el("li", { class: `chat-line${line.channel === "spectators" ? " spectator-line" : ""}`, hidden: muted, "data-chat-id": line.id },
        el("strong", { text: `${line.user}${line.channel === "spectators" ? ` (${_("spectator")})` : ""}: ` }),
        line.phrase && quickText(line.phrase) ? el("span", { class: "quick-line", "data-phrase": line.phrase, text: quickText(line.phrase),
          "aria-label": QUICK_REACTIONS[line.phrase] ? QUICK_REACTIONS[line.phrase][1] : null }) : line.text,
        own || !this.root.dataset.username ? null : el("span", { class: "chat-tools" },  // a visitor may not mute
          el("button", { type: "button", class: "link", text: _("mute"), "aria-label": fmt(_("Hide %s's chat"), [line.user]),
            onclick: () => this.send("mute", { username: line.user }) }),
          reportUrl ? el("a", { href: reportUrl, text: _("report"), "aria-label": fmt(_("Report %s"), [line.user]) }) : null)));
      chat.scrollTop = chat.scrollHeight;
      if (live && !own && !muted) this.markUnread();
    }

    // --- the side column (tabs) and, on phones, its drawer ------------------------------------------------

    bindSide() {
      const side = this.root.querySelector("[data-side]");
      if (!side) return;
      const tabs = [...side.querySelectorAll("[data-tab]")];
      const select = (tab) => {
        for (const other of tabs) {
          const on = other === tab;
          other.setAttribute("aria-selected", String(on));
          other.tabIndex = on ? 0 : -1;
          side.querySelector(`#${other.getAttribute("aria-controls")}`).hidden = !on;
        }
        if (tab.dataset.tab === "chat") this.clearUnread();
      };
      tabs.forEach((tab, index) => {
        tab.addEventListener("click", () => select(tab));
        tab.addEventListener("keydown", (event) => {
          const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
          if (!step) return;
          const next = tabs[(index + step + tabs.length) % tabs.length];
          select(next);
          next.focus();
        });
      });
      const opener = this.root.querySelector("[data-side-open]");
      const setOpen = (open) => {
        side.classList.toggle("open", open);
        if (opener) opener.setAttribute("aria-expanded", String(open));
        if (open) { side.querySelector("[aria-selected=true]")?.focus(); if (side.querySelector("#panel-chat")?.hidden === false) this.clearUnread(); }
        else if (opener && side.contains(document.activeElement)) opener.focus();
      };
      opener?.addEventListener("click", () => setOpen(!side.classList.contains("open")));
      side.querySelector("[data-side-close]")?.addEventListener("click", () => setOpen(false));
      side.addEventListener("keydown", (event) => { if (event.key === "Escape") setOpen(false); });
      document.addEventListener("keydown", (event) => {
        if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
        if (event.key === "l" || event.key === "L") {
          if (getComputedStyle(opener || side).display === "none") side.querySelector("[aria-selected=true]")?.focus();
          else setOpen(!side.classList.contains("open"));
        }
      });
      this.sideIsClosed = () => (opener && getComputedStyle(opener).display !== "none" && !side.classList.contains("open"))
        || side.querySelector("#panel-chat").hidden;
    }

    markUnread() {
      if (!this.sideIsClosed || !this.sideIsClosed()) return;
      this.unread = (this.unread || 0) + 1;
      for (const badge of this.root.querySelectorAll("[data-unread], [data-unread-open]")) {
        badge.hidden = false;
        badge.textContent = String(this.unread);
        badge.setAttribute("aria-label", fmt(ngettext("%s new message", "%s new messages", this.unread), [this.unread]));
      }
    }

    clearUnread() {
      this.unread = 0;
      for (const badge of this.root.querySelectorAll("[data-unread], [data-unread-open]")) badge.hidden = true;
    }

    // --- the result screen ---------------------------------------------------------------------------------

    reasonText(result) {
      if (this.renderer && this.renderer.reason) {
        const text = this.renderer.reason(result, this.ctx);
        if (text) return text;
      }
      return {
        ended_by_vote: _("The table was ended: every other player had left."),
        win_claimed: _("The win was claimed: the opponent stayed away longer than the grace."),
        abandoned_by_all: _("Nobody was connected any more: the game was abandoned by all, and no rating changed."),
      }[result.reason] || "";
    }

    resultRow(seat, place, first, data) {
      const result = data.result;
      const change = (data.rating_changes || {})[String(seat)];
      const notes = [];
      if ((result.left || []).includes(seat)) notes.push(_("left the game: ranked last"));
      else if ((result.absent || []).includes(seat)) notes.push(_("absent at the end: played by the computer"));
      else if ((result.computer_played || []).includes(seat)) notes.push(_("the computer played for them: ranked last"));
      const score = this.renderer && this.renderer.score ? this.renderer.score(seat, data, this.ctx)
        : result.scores && result.scores[seat] !== undefined ? String(result.scores[seat]) : "";
      const delta = change ? change.delta : null;
      return el("tr", { class: first ? "first" : null, "data-result-seat": seat },
        el("td", { class: "place", text: ordinal(place) }),
        el("th", { scope: "row" }, `${first ? "★ " : ""}${this.name(seat)}${seat === this.ctx.seat ? ` (${_("you")})` : ""}`,
          this.kindBadge(this.players.find((p) => p.seat === seat)), ...notes.map((note) => el("span", { class: "note", text: note }))),
        el("td", { text: score }),
        data.rating_changes ? el("td", {}, change ? el("span", {},
          `${change.after} `, el("span", { class: `delta ${delta > 0 ? "up" : delta < 0 ? "down" : ""}`,
            text: `(${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta)})` })) : "—") : null);
    }

    renderResult() {
      const layer = this.root.querySelector("[data-result-layer]");
      const box = this.root.querySelector("[data-result]");
      if (!box || !layer) return;
      const data = this.data;
      // Live: once the table is over. In a replay: at its last step (the bar's step controls stay usable).
      const over = data && (data.status === "finished" || data.status === "aborted") && (this.live || data.result);
      if (!over) { layer.hidden = true; this.resultShownFor = null; this.resultClosed = false; return; }
      if (this.resultShownFor === data.status && this.resultClosed) return;
      // A replay opens on the board: its result waits behind the "Result" button instead of covering the board.
      const closed = !this.live && this.resultShownFor !== data.status;
      this.resultShownFor = data.status;
      const lobby = this.root.dataset.lobbyUrl;
      const buttons = [];
      // A tournament's table leads back to its standings (the log's link, {% tournament_follow %}), not to a rematch
      // outside the tournament: a Swiss player who left for one would not be taken to their next round.
      const tournament = document.querySelector(".tournament-link a");
      const offer = tournament ? null : this.rematchOffer(data);
      if (offer) buttons.push(...offer.buttons);
      if (tournament) {
        buttons.push(el("a", { class: "button", href: tournament.href, "data-back-to-tournament": "", text: tournament.textContent }));
      } else if (lobby) {
        buttons.push(el("a", { class: "button secondary", href: lobby, "data-back-to-lobby": "", text: _("Back to the lobby") }));
      }
      if (data.status === "finished" && this.live && this.root.dataset.replayUrl) {
        buttons.push(el("a", { class: "button secondary", href: this.root.dataset.replayUrl, text: _("Watch the replay") }));
      }
      buttons.push(el("button", { type: "button", class: "secondary", "data-close-result": "", text: _("Look at the board"),
        onclick: () => this.closeResult(true) }));
      let content;
      if (data.status === "aborted") {
        content = [el("h2", { id: "result-title", text: _("This table was stopped") }),
          el("p", { class: "reason", text: !data.view  // closed before it started
            ? _("It was cancelled before the end: no result and no rating change.")
            : _("It was aborted before the end: no result and no rating change. The clocks are stopped.") })];
      } else {
        const result = data.result;
        const winners = result.ranking[0] || [];
        const mine = this.ctx.seat;
        const myPlace = mine === null ? null : result.ranking.findIndex((group) => group.includes(mine));
        const title = mine === null ? fmt(_("%s wins"), [winners.map((seat) => this.name(seat)).join(", ")])
          : myPlace === 0 ? (winners.length > 1 ? _("You share the win!") : _("You win!"))
            : fmt(_("You finish %s"), [ordinal(myPlace + 1)]);
        const rows = [];
        let place = 1;
        for (const group of result.ranking) {
          for (const seat of group) rows.push(this.resultRow(seat, place, place === 1, data));
          place += group.length;
        }
        const headers = [_("Place"), _("Player"), this.renderer && this.renderer.scoreTitle ? this.renderer.scoreTitle() : _("Score")];
        if (data.rating_changes) headers.push(_("Rating"));
        content = [el("h2", { id: "result-title", text: fmt(_("Game over: %s"), [title]) }),
          el("p", { class: "reason", text: this.reasonText(result) }),
          el("table", { class: "result-table" },
            el("thead", {}, el("tr", {}, ...headers.map((text) => el("th", { scope: "col", text })))),
            el("tbody", {}, ...rows)),
          this.seriesNote(),
          ...(offer ? offer.notes : [])];
      }
      box.replaceChildren(...content.filter(Boolean), el("div", { class: "actions" }, ...buttons));
      this.resultClosed = this.resultClosed || closed;
      layer.hidden = this.resultClosed;
      this.root.classList.toggle("result-closed", this.resultClosed);
      this.ensureShowResult();
    }

    // "Play again" is an offer: the first player's click opens the rematch table, the others see who offered and
    // accept (the same form) or decline; everyone sees who accepted and who declined (lobby/rematch.py).
    rematchOffer(data) {
      if (data.status !== "finished" || !this.live || this.ctx.seat === null || !this.root.dataset.rematchUrl) return null;
      const me = this.root.dataset.username;
      const state = this.rematch || { match_id: null, accepted: [], declined: [] };
      const post = (url, attributes) => el("form", { method: "post", action: url },
        el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: this.root.dataset.csrf || "" }),
        el("button", { type: "submit", ...attributes }));
      const notes = [];
      const open = state.match_id !== null && state.status === "open";
      const answered = state.accepted.includes(me) || state.declined.includes(me);
      const buttons = [];
      if (open && state.offered_by !== me && !answered) {
        notes.push(el("p", { class: "rematch-offer", "data-rematch-offer": "", role: "status",
          text: fmt(_("%s offers a rematch."), [state.offered_by]) }));
        buttons.push(post(this.root.dataset.rematchUrl, { "data-accept-rematch": "", text: _("Accept") }),
          post(this.root.dataset.declineUrl, { class: "secondary", "data-decline-rematch": "", text: _("Decline") }));
      } else if (state.match_id === null || state.accepted.includes(me) || state.status === "open") {
        buttons.push(post(this.root.dataset.rematchUrl, { "data-play-again": "", text: _("Play again") }));
      }
      if (state.accepted.length) notes.push(el("p", { class: "rematch-note", text: fmt(_("Ready to play again: %s."), [state.accepted.join(", ")]) }));
      if (state.declined.length) notes.push(el("p", { class: "rematch-note declined", "data-rematch-declined": "", text: fmt(_("Rematch declined by %s."), [state.declined.join(", ")]) }));
      return { buttons, notes };
    }

    // The running score of a series of rematches (sent with the finished table's snapshot).
    seriesNote() {
      const series = this.series;
      if (!series || series.games < 2) return null;
      return el("p", { class: "series-score", "data-series-score": "", text: fmt(_("Series of %s games: %s."),
        [series.games, series.scores.map((entry) => `${entry.user} ${entry.wins}`).join(" – ")]) });
    }

    closeResult(closed) {
      this.resultClosed = closed;
      this.root.querySelector("[data-result-layer]").hidden = closed;
      this.root.classList.toggle("result-closed", closed);
      if (!closed) this.root.querySelector("[data-result]").focus();
    }

    ensureShowResult() {
      const tools = this.root.querySelector(".table-tools");
      if (!tools || tools.querySelector("[data-show-result]")) return;
      tools.prepend(el("button", { type: "button", class: "show-result", "data-show-result": "", text: _("Result"),
        onclick: () => this.closeResult(false) }));
    }

    renderFairness() {
      const hash = this.root.querySelector("[data-seed-hash]");
      if (hash && this.data) hash.textContent = this.data.seed_hash;
      const seed = this.root.querySelector("[data-seed]");
      if (seed && this.data && this.data.seed) { seed.textContent = this.data.seed; seed.closest("p").hidden = false; }
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
        if (this.version !== null && frame.v < this.version) return;  // older than what we show: a leftover
        if (frame.d.snapshot) {
          this.players = frame.d.players || this.players;
          this.muted = frame.d.muted || [];
          this.root.querySelector("[data-chat]")?.replaceChildren();
          (frame.d.chat || []).forEach((line) => this.appendChat(line, false));
        } else if (this.version !== null && frame.v === this.version) {
          return;  // a view we already show
        } else if (this.version !== null && frame.v !== this.version + 1) {
          this.send("sync", {});  // we missed a version: ask for a fresh snapshot
          return;
        }
        const wasMyTurn = this.myTurn;
        if (frame.d.snapshot) { this.spectators = frame.d.spectators || null; this.rematch = frame.d.rematch || this.rematch; this.series = frame.d.series || null; this.renderSpectators(); }
        // A rematch's result screen shows the series' score: the snapshot of the finished table carries it.
        else if (frame.d.status === "finished" && this.data && this.data.status === "active" && "series" in this.root.dataset) this.wantSync = true;
        this.version = frame.v;
        this.data = frame.d;
        this.clockAt = Date.now();
        this.warned = false;
        this.hold(false);
        this.showError("");
        this.myTurn = this.ctx.seat !== null && ((frame.d.view || {}).awaited || []).includes(this.ctx.seat);
        if (this.myTurn && !wasMyTurn && !frame.d.snapshot) { this.chime(); this.notifyTurn(); }
        this.appendLog(frame.d.events || [], Boolean(frame.d.snapshot));
        this.render(frame.d.snapshot ? [] : frame.d.events || []);
        this.renderDelay();
        if (this.wantSync) { this.wantSync = false; this.send("sync", {}); }
      } else if (frame.t === "spectators") {
        this.spectators = frame.d;
        this.renderSpectators();
      } else if (frame.t === "heartbeat") {
        if (this.version === null || frame.v > this.version) this.send("sync", {});  // a version we never got
      } else if (frame.t === "presence") {
        this.players = frame.d.players;
        // A delayed spectators' view shows no clock: the live one would tell who is to play now.
        if (this.data && frame.d.clock && !this.data.delay) { this.data.clock = frame.d.clock; this.clockAt = Date.now(); }
        if (frame.d.notice) this.appendLog([frame.d.notice], false);
        this.renderPlayers();
      } else if (frame.t === "chat") {
        this.appendChat(frame.d, true);
      } else if (frame.t === "muted") {
        this.muted = frame.d.muted;
        this.send("sync", {});
      } else if (frame.t === "rematch") {
        this.rematch = frame.d;
        if (!this.resultClosed) { this.resultShownFor = null; this.renderResult(); }
      } else if (frame.t === "error") {
        if (frame.d.code === "sync_limited") return;  // the server's heartbeat brings this page up to date anyway
        this.hold(false);
        this.showError(frame.d.message);
        if (frame.d.code === "stale") this.send("sync", {});
      } else if (frame.t === "lobby") {
        this.send("sync", {});
      }
    }

    connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      this.socket = new WebSocket(scheme + location.host + this.root.dataset.ws);
      let openedAt = null;
      this.socket.addEventListener("open", () => { openedAt = Date.now(); this.showError(""); });
      this.socket.addEventListener("message", (message) => this.onFrame(JSON.parse(message.data)));
      this.socket.addEventListener("close", (event) => {
        this.hold(false);
        if (event.code === 4403) {  // suspended or banned: moderation-notices.js says why; no reconnecting
          this.root.dispatchEvent(new CustomEvent("tapete:closed", { detail: { code: event.code, reason: event.reason } }));
          return;
        }
        // 4401 not logged in, 4404 no such table, 4405 a table that allows no spectators: retrying would not help.
        // The error frame sent before the close already showed why (docs/protocol.md, close codes).
        if ([4401, 4404, 4405].includes(event.code)) return;
        if (event.code !== 4429) this.showError(_("Connection lost, reconnecting…"));
        // The wait starts over only after a socket that lasted: one closed as soon as it opened (4500 while the
        // server cannot reach Redis) keeps backing off, or every page would knock every half second.
        if (openedAt !== null && Date.now() - openedAt > 5000) this.retry = 500;
        // 4012: the server is restarting; come back at once (spread over half a second), then back off as usual.
        if (event.code === 4012) { setTimeout(() => this.connect(), Math.random() * 500); this.retry = 500; return; }
        setTimeout(() => this.connect(), this.retry);
        this.retry = Math.min(this.retry * 2, 10000);
      });
      const quick = this.root.querySelector("[data-quick-chat]");
      if (quick && !quick.dataset.bound) {
        quick.dataset.bound = "1";
        for (const [key, words] of Object.entries(QUICK_PHRASES)) {
          quick.append(el("button", { type: "button", class: "secondary quick", "data-quick": key, text: words, onclick: () => this.send("quick", { phrase: key }) }));
        }
        for (const [key, [emoji, words]] of Object.entries(QUICK_REACTIONS)) {
          quick.append(el("button", { type: "button", class: "secondary quick reaction", "data-quick": key, text: emoji, title: words,
            "aria-label": words, onclick: () => this.send("quick", { phrase: key }) }));
        }
      }
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
    kit,
    engineNotice,
    start() {
      document.querySelectorAll("[data-table]").forEach((root) => {
        const table = new Table(root);
        table.bindSide();
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
