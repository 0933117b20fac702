// Perudo's board for the shared table frame (static/js/table.js): the cups around the table, your dice drawn as
// dice (the Paco as a toucan), the current bid, a bid picker that offers only the legal bids, the Dudo / Calza /
// Palifico buttons, the animated reveal after a call, and one log line in words for every event of rules.py.
// Everything is drawn from the seat's view (data.view) and legal actions (data.legal); nothing else is guessed.
(function () {
  "use strict";
  const { el, svg, gettext: _, ngettext, interpolate: fmt } = Tapete.kit;  // static/js/table.js, its header
  const PACO = 1;

  // What the board remembers between two renders (one table per page).
  const memory = {
    reveal: null,     // the last Dudo/Calza reveal, shown until the next round's first bid
    face: null,       // the bid picker's choice
    quantity: null,
    bidSeq: null,     // the bid the picker's choice was made against
    board: null, data: null, ctx: null,
  };

  // --- words ----------------------------------------------------------------------------------------------

  // "4 fives", "1 Paco": one plural-aware string per face so that every language can word it its own way.
  function countOf(quantity, face) {
    const forms = {
      1: ngettext("%s Paco", "%s Pacos", quantity),
      2: ngettext("%s two", "%s twos", quantity),
      3: ngettext("%s three", "%s threes", quantity),
      4: ngettext("%s four", "%s fours", quantity),
      5: ngettext("%s five", "%s fives", quantity),
      6: ngettext("%s six", "%s sixes", quantity),
    };
    return fmt(forms[face], [quantity]);
  }

  function facePlural(face) {
    return [null, _("Pacos"), _("twos"), _("threes"), _("fours"), _("fives"), _("sixes")][face];
  }

  function faceName(face) {
    return face === PACO ? _("Paco") : String(face);
  }

  function diceWords(count) {
    return fmt(ngettext("%s die", "%s dice", count), [count]);
  }

  function names(seats, ctx) {
    return seats.map((seat) => ctx.name(seat)).join(", ");
  }

  // --- drawing: dice and cups -----------------------------------------------------------------------------

  const PIPS = {
    2: [[72, 28], [28, 72]],
    3: [[72, 28], [50, 50], [28, 72]],
    4: [[28, 28], [72, 28], [28, 72], [72, 72]],
    5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
    6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
  };

  // The Paco: a perched toucan-like bird with a big banana beak, readable in one colour.
  function toucan() {
    return svg("g", { class: "perudo-toucan" },
      svg("path", { class: "perudo-toucan-body", d: "M33 80 L24 93 L38 86 Z" }),
      svg("ellipse", { class: "perudo-toucan-body", cx: 39, cy: 63, rx: 14, ry: 20 }),
      svg("circle", { class: "perudo-toucan-body", cx: 43, cy: 37, r: 13 }),
      svg("ellipse", { class: "perudo-toucan-throat", cx: 48, cy: 50, rx: 6.5, ry: 8 }),
      svg("path", { class: "perudo-toucan-beak", d: "M53 29 C66 21 84 25 90 40 C80 38 66 41 54 45 Z" }),
      svg("path", { class: "perudo-toucan-tip", d: "M84 31 C88 34 90 37 90 40 C87 39 85 38 82 38 Z" }),
      svg("circle", { class: "perudo-toucan-eye", cx: 45, cy: 33, r: 3.6 }),
      svg("circle", { class: "perudo-toucan-pupil", cx: 45.8, cy: 33, r: 1.7 }),
      svg("path", { class: "perudo-toucan-perch", d: "M22 86 H62" }));
  }

  function dieSvg(face) {
    const art = face === PACO ? toucan()
      : svg("g", { class: "perudo-pips" }, ...PIPS[face].map(([cx, cy]) => svg("circle", { cx, cy, r: 9 })));
    return svg("svg", { viewBox: "0 0 100 100", class: "perudo-die-face", "aria-hidden": "true", focusable: "false" },
      svg("rect", { class: "perudo-die-body", x: 4, y: 4, width: 92, height: 92, rx: 18 }), art);
  }

  // One die as an image with its text alternative ("Paco", "5"); extra: a class and a word for its state.
  function die(face, extraClass, note) {
    const label = note ? `${faceName(face)}, ${note}` : faceName(face);
    return el("span", { class: `perudo-die${extraClass ? ` ${extraClass}` : ""}`, role: "img", "aria-label": label,
      "data-face": face }, dieSvg(face));
  }

  function cupSvg(text) {
    return svg("svg", { viewBox: "0 0 60 64", class: "perudo-cup-art", "aria-hidden": "true", focusable: "false" },
      svg("path", { class: "perudo-cup-body", d: "M19 5 H41 Q44 5 44.6 8 L53.5 53 Q30 61 6.5 53 L15.4 8 Q16 5 19 5 Z" }),
      svg("path", { class: "perudo-cup-band", d: "M10.8 40 Q30 46 49.2 40 L50.6 47 Q30 54 9.4 47 Z" }),
      svg("text", { class: "perudo-cup-count", x: 30, y: 32, "text-anchor": "middle" }, document.createTextNode(text)));
  }

  // --- what the view says ---------------------------------------------------------------------------------

  // Legal bids by face: {face: {min, max}} (the rules list each face's quantities as one ascending run).
  function bidRanges(legal) {
    const ranges = {};
    for (const action of legal) {
      if (action.type !== "bid") continue;
      const range = ranges[action.face] || (ranges[action.face] = { min: action.quantity, max: action.quantity });
      range.min = Math.min(range.min, action.quantity);
      range.max = Math.max(range.max, action.quantity);
    }
    return ranges;
  }

  function findLegal(legal, type, quantity, face) {
    return legal.find((action) => action.type === type &&
      (type !== "bid" || (action.quantity === quantity && action.face === face))) || null;
  }

  function diceCountOf(view, seat) {
    if (view.dice_counts) return view.dice_counts[seat];
    if (seat === view.seat && view.my_dice_count !== null) return view.my_dice_count;
    return null;  // lostDiceVisible is off: other cups are not counted on screen
  }

  // The reveal to show: the game's own (after the last call of the game) or the last one seen in the events,
  // kept until the next round's first bid.
  function rememberReveal(data, ctx) {
    const events = data.events || [];
    if (!ctx.live || data.snapshot) memory.reveal = null;  // a full log: rebuild from it
    for (const event of events) {
      if (event.type === "dudo" || event.type === "calza") memory.reveal = event.reveal;
    }
  }

  function revealToShow(view) {
    if (view.last_reveal) return view.last_reveal;
    if (view.history && view.history.length === 0) return memory.reveal;
    return null;
  }

  // --- the board ------------------------------------------------------------------------------------------

  function render(board, data, ctx) {
    memory.board = board; memory.data = data; memory.ctx = ctx;
    rememberReveal(data, ctx);
    draw();
  }

  function draw() {
    const { board, data, ctx } = memory;
    const view = data.view || {};
    const focusKey = board.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const legal = ctx.live && data.seat !== null && data.status === "active" ? data.legal || [] : [];
    const reveal = revealToShow(view);
    // The frame gives the board the space left in the window: the felt takes what the status line and your own
    // zone (your dice, the controls) leave, and a reveal lies over the felt instead of pushing the controls down.
    const shownReveal = reveal && memory.hiddenReveal !== revealKey(reveal) ? reveal : null;
    board.replaceChildren(el("div", { class: `perudo${legal.length ? " perudo-acting" : ""}` },
      el("div", { class: "perudo-top" }, statusBar(view, legal, ctx), palificoBanner(view, ctx)),
      el("div", { class: "perudo-felt-wrap" }, tableArea(view, ctx),
        shownReveal ? revealPanel(shownReveal, ctx) : null),
      el("div", { class: "perudo-my-zone" }, myDice(view), legal.length ? controls(view, legal, ctx) : null)));
    restoreFocus(board, focusKey);
  }

  function restoreFocus(board, key) {
    if (key === null || key === undefined) return;
    const target = board.querySelector(`[data-key="${key}"]`);
    if (target && !target.disabled) target.focus();
    else board.querySelector("[data-key=status]")?.focus();
  }

  function revealKey(reveal) {
    return `${reveal.caller}:${reveal.bid.bidder}:${reveal.bid.quantity}:${reveal.bid.face}:${reveal.count}`;
  }

  function winnerNames(view, ctx) {
    const winners = ctx.winners && ctx.winners();
    return (winners && winners.length ? winners : [view.winner]).map((seat) => ctx.name(seat)).join(", ");
  }

  function statusBar(view, legal, ctx) {
    const parts = [];
    if (view.round) parts.push(el("span", { class: "perudo-pill perudo-round", text: fmt(_("Round %s"), [view.round]) }));
    if (view.palifico && view.phase === "bidding") {
      parts.push(el("span", { class: "perudo-pill perudo-palifico", text: _("Palifico") }));
    }
    if (view.options && view.options.salsa) parts.push(el("span", { class: "perudo-pill perudo-salsa", text: _("Salsa") }));
    if (view.dice_in_play !== null && view.dice_in_play !== undefined) {
      parts.push(el("span", { class: "perudo-pill", text: fmt(_("%s in play"), [diceWords(view.dice_in_play)]) }));
    }
    return el("div", { class: "perudo-status" }, ...parts,
      el("p", { class: `perudo-turn-line${legal.length ? " perudo-mine" : ""}`, tabindex: "-1", "data-key": "status",
        text: turnText(view, legal, ctx) }));
  }

  function turnText(view, legal, ctx) {
    if (view.phase === "over") return fmt(_("%s wins the game!"), [winnerNames(view, ctx)]);
    if (view.phase !== "bidding") return _("Rolling the dice…");
    const mine = view.turn === view.seat && view.seat !== null;
    if (mine && !view.bid) return _("Your turn: open the round with a bid.");
    if (mine) return _("Your turn: raise the bid or call Dudo.");
    if (legal.some((action) => action.type === "bid" || action.type === "dudo")) {
      return fmt(_("%s to play. Salsa: you may bid or call Dudo out of turn."), [ctx.name(view.turn)]);
    }
    if (legal.some((action) => action.type === "calza")) {
      return fmt(_("%s to play. You may call Calza."), [ctx.name(view.turn)]);
    }
    return fmt(view.bid ? _("%s to play.") : _("%s opens the round."), [ctx.name(view.turn)]);
  }

  function palificoBanner(view, ctx) {
    if (!view.palifico || view.phase !== "bidding") return null;
    const who = fmt(_("Palifico round for %s."), [ctx.name(view.palifico_player)]);
    const rule = view.locked_face
      ? fmt(_("Pacos are not wild and the face is locked on %s: only the quantity rises."),
        [facePlural(view.locked_face)])
      : _("Pacos are not wild, and the opening bid locks the face for the whole round.");
    return el("p", { class: "perudo-palifico-banner", role: "note" },
      el("strong", { text: who }), " ", rule,
      view.locked_face ? die(view.locked_face, "perudo-small", _("locked face")) : null);
  }

  // The felt: every cup in seat order (clockwise), the designated player marked, the current bid in the middle.
  function tableArea(view, ctx) {
    const seats = Array.from({ length: view.num_players || 0 }, (_unused, seat) => seat);
    return el("section", { class: "perudo-felt", "aria-label": _("The table") },
      el("ol", { class: "perudo-cups" }, ...seats.map((seat) => cup(view, seat, ctx))),
      currentBid(view, ctx));
  }

  function cup(view, seat, ctx) {
    const inGame = (view.in_game || []).includes(seat);
    const count = diceCountOf(view, seat);
    const designated = view.phase === "bidding" && view.turn === seat;
    const lastBidder = view.bid && view.bid.bidder === seat;
    const palifico = view.palifico && view.phase === "bidding" && view.palifico_player === seat;
    const bidWords = lastBidder ? countOf(view.bid.quantity, view.bid.face) : null;
    const notes = [
      inGame ? null : el("span", { class: "perudo-tag perudo-out", text: `✕ ${_("out")}` }),
      designated ? el("span", { class: "perudo-tag perudo-turn", text: `▶ ${_("to play")}` }) : null,
      lastBidder ? el("span", { class: "perudo-tag perudo-bidder", text: fmt(_("bid %s"), [bidWords]) }) : null,
      palifico ? el("span", { class: "perudo-tag", text: `★ ${_("Palifico")}` }) : null,
    ];
    const label = [ctx.name(seat), seat === view.seat ? _("you") : null,
      !inGame ? _("out of the game") : count === null ? _("dice count hidden") : diceWords(count),
      designated ? _("to play") : null,
      lastBidder ? fmt(_("made the current bid, %s"), [bidWords]) : null,
      palifico ? _("Palifico player") : null,
    ].filter(Boolean).join(", ");
    const shownName = seat === view.seat ? `${ctx.name(seat)} (${_("you")})` : ctx.name(seat);
    return el("li", { class: ["perudo-seat-cup", designated ? "perudo-designated" : null,
      inGame ? null : "perudo-out", seat === view.seat ? "perudo-me" : null].filter(Boolean).join(" "), "data-seat": seat },
      el("span", { class: "visually-hidden", text: label }),
      cupSvg(!inGame ? "0" : count === null ? "?" : String(count)),
      el("span", { class: "perudo-cup-name", "aria-hidden": "true", text: shownName }),
      el("span", { class: "perudo-cup-notes", "aria-hidden": "true" }, ...notes));
  }

  function currentBid(view, ctx) {
    if (view.phase !== "bidding") return null;
    if (!view.bid) {
      return el("div", { class: "perudo-current-bid perudo-empty" },
        el("p", { text: fmt(_("No bid yet: %s opens."), [ctx.name(view.turn)]) }));
    }
    const bid = view.bid;
    return el("div", { class: "perudo-current-bid", "data-current-bid": "" },
      el("p", { class: "perudo-label", text: _("Current bid") }),
      el("p", { class: "perudo-bid-big", "aria-hidden": "true" }, el("span", { class: "perudo-qty", text: String(bid.quantity) }),
        el("span", { class: "perudo-times", "aria-hidden": "true", text: "×" }), die(bid.face, "perudo-medium")),
      el("p", { class: "perudo-bid-words",
        text: fmt(_("%s by %s"), [countOf(bid.quantity, bid.face), ctx.name(bid.bidder)]) }),
      historyList(view, ctx));
  }

  function historyList(view, ctx) {
    const history = view.history || [];
    if (history.length < 2) return null;
    return el("ol", { class: "perudo-history", "aria-label": _("Bids this round") },
      ...history.map((entry) => el("li",
        { text: `${ctx.name(entry.seat)}: ${countOf(entry.quantity, entry.face)}` })));
  }

  function myDice(view) {
    if (view.seat === null || view.seat === undefined || !view.my_dice) return null;
    if (!view.my_dice.length) {
      if (view.phase === "over") return null;
      return el("section", { class: "perudo-my-dice" }, el("h2", { text: _("Your dice") }),
        el("p", { class: "muted", text: (view.in_game || []).includes(view.seat)
          ? _("Waiting for the roll.") : _("You are out of the game: you have no dice left.") }));
    }
    return el("section", { class: "perudo-my-dice", "aria-labelledby": "perudo-my-dice" },
      el("h2", { id: "perudo-my-dice", text: _("Your dice") }),
      el("div", { class: "perudo-dice-row" }, ...view.my_dice.map((face, i) => {
        const node = die(face, "perudo-large");
        node.style.setProperty("--i", i);
        return node;
      })));
  }

  // --- controls: the bid picker and the calls ---------------------------------------------------------------

  function choosePickerDefaults(view, ranges) {
    const faces = Object.keys(ranges).map(Number);
    if (!faces.length) return;
    if (memory.bidSeq !== view.bid_seq || !ranges[memory.face]) {
      memory.bidSeq = view.bid_seq;
      const keep = ranges[memory.face] ? memory.face : null;
      const current = view.bid && ranges[view.bid.face] ? view.bid.face : null;
      memory.face = current || keep || faces.find((face) => face !== PACO) || faces[0];
      memory.quantity = ranges[memory.face].min;
    }
    const range = ranges[memory.face];
    memory.quantity = Math.min(range.max, Math.max(range.min, memory.quantity || range.min));
  }

  function controls(view, legal, ctx) {
    const ranges = bidRanges(legal);
    const outOfTurn = view.turn !== view.seat;
    const calls = el("div", { class: "perudo-calls actions" },
      callButton(legal, "dudo", _("Dudo!"), _("Call Dudo: the bid is too high"), ctx),
      callButton(legal, "calza", _("Calza!"), _("Call Calza: the bid is exactly right"), ctx),
      declareButton(legal, ctx));
    const noRaise = findLegal(legal, "dudo")
      ? el("p", { class: "perudo-hint", text: _("No raise fits under the dice in play: call Dudo.") }) : null;
    return el("section", { class: `perudo-controls${outOfTurn ? " perudo-out-of-turn" : ""}`, "aria-label": _("Your move") },
      Object.keys(ranges).length ? bidPicker(view, legal, ranges, outOfTurn, ctx) : noRaise,
      calls.childElementCount ? calls : null);
  }

  function callButton(legal, type, text, label, ctx) {
    const action = findLegal(legal, type);
    if (!action) return null;
    return el("button", { type: "button", class: `perudo-call perudo-${type}`, "data-key": type, "aria-label": label,
      text, onclick: (event) => send(event, action, ctx) });
  }

  function declareButton(legal, ctx) {
    const action = findLegal(legal, "declare_palifico");
    if (!action) return null;
    return el("div", { class: "perudo-declare" },
      el("button", { type: "button", class: "perudo-call perudo-palifico", "data-key": "declare", text: _("Declare Palifico"),
        onclick: (event) => send(event, action, ctx) }),
      el("p", { class: "perudo-hint", text: _("You are down to one die: declare a Palifico round (Pacos not " +
        "wild, face locked) before your opening bid, or simply bid to play a normal round.") }));
  }

  function send(event, action, ctx) {
    // The frame holds the controls until the answer (static/js/table.js); the focus waits on the status line, which
    // the redraw keeps.
    const section = event.currentTarget.closest(".perudo-controls");
    if (section.contains(document.activeElement)) memory.board.querySelector("[data-key=status]")?.focus();
    ctx.act(action);
  }

  // A form: pick a face (radio dice), a quantity (− / number / +), then "Bid …" (or Enter in the number field).
  function bidPicker(view, legal, ranges, outOfTurn, ctx) {
    choosePickerDefaults(view, ranges);
    const range = ranges[memory.face];
    const legend = outOfTurn ? _("Bid out of turn (Salsa)") : view.bid ? _("Raise the bid") : _("Opening bid");
    const submit = el("button", { type: "submit", class: "perudo-bid-go", "data-key": "bid" });
    const quantity = el("input", { type: "number", id: "perudo-quantity", class: "perudo-qty-input", "data-key": "qty",
      min: range.min, max: range.max, value: memory.quantity, inputmode: "numeric", required: "",
      onchange: () => setQuantity(form, Number(quantity.value), range),
      oninput: () => {
        const value = Number(quantity.value);
        if (Number.isInteger(value) && value >= range.min && value <= range.max) {
          setQuantity(form, value, range, true);
        }
      } });
    const stepper = (key, label, text, delta) => el("button", { type: "button", class: "perudo-step", "data-key": key,
      "aria-label": label, text, onclick: () => setQuantity(form, memory.quantity + delta, range) });
    const form = el("form", { class: "perudo-bid-picker", onsubmit: (event) => {
      event.preventDefault();
      setQuantity(form, Number(quantity.value), range);
      const action = findLegal(legal, "bid", memory.quantity, memory.face);
      if (action) send(event, action, ctx);
    } }, el("fieldset", {},
      el("legend", { text: legend }),
      el("div", { class: "perudo-faces", role: "radiogroup", "aria-label": _("Face") },
        ...[1, 2, 3, 4, 5, 6].map((face) => faceChoice(face, ranges[face]))),
      el("div", { class: "perudo-bid-row" },
        el("div", { class: "perudo-qty-row" },
          el("label", { for: "perudo-quantity", text: _("How many dice") }),
          el("div", { class: "perudo-stepper" }, stepper("minus", _("Fewer dice"), "−", -1), quantity,
            stepper("plus", _("More dice"), "+", 1)),
          el("span", { class: "perudo-range muted", text: fmt(_("from %s to %s"), [range.min, range.max]) })),
        submit),
      ...bidHints(view, ranges).map((text) => el("p", { class: "perudo-hint", text }))));
    setQuantity(form, memory.quantity, range);
    return form;
  }

  // Clamp the quantity to the face's legal range and update the picker in place (no redraw: a click on "Bid"
  // right after typing a number must still land on the same button).
  function setQuantity(form, value, range, typing) {
    const wanted = Number.isFinite(value) ? Math.round(value) : range.min;
    memory.quantity = Math.min(range.max, Math.max(range.min, wanted));
    const input = form.querySelector(".perudo-qty-input");
    if (!typing) input.value = memory.quantity;
    form.querySelector("[data-key=minus]").setAttribute("aria-disabled", String(memory.quantity <= range.min));
    form.querySelector("[data-key=plus]").setAttribute("aria-disabled", String(memory.quantity >= range.max));
    form.querySelector(".perudo-bid-go").textContent = fmt(_("Bid %s"), [countOf(memory.quantity, memory.face)]);
  }

  function faceChoice(face, range) {
    const id = `perudo-face-${face}`;
    const note = range ? fmt(_("from %s"), [range.min]) : _("closed");
    const input = el("input", { type: "radio", name: "perudo-face", id, value: face, class: "visually-hidden",
      "data-key": `face-${face}`, checked: memory.face === face ? "" : null, disabled: range ? null : "",
      onchange: () => {
        // Switching to or from Pacos changes the scale (half / double): start again from the minimum.
        if ((face === PACO) !== (memory.face === PACO)) memory.quantity = range.min;
        memory.face = face;
        draw();
      } });
    return el("span", { class: `perudo-face-choice${range ? "" : " perudo-closed"}` }, input,
      el("label", { for: id },
        el("span", { class: "visually-hidden", text: `${face === PACO ? _("Pacos") : facePlural(face)}, ${note}` }),
        dieSvg(face),
        el("span", { class: "perudo-face-min", "aria-hidden": "true", text: range ? `≥ ${range.min}` : "—" })));
  }

  // Make the Paco conversions and the Palifico lock obvious next to the picker.
  function bidHints(view, ranges) {
    const hints = [];
    const bid = view.bid;
    if (view.palifico) {
      if (bid && !ranges[PACO] && !Object.keys(ranges).some((face) => Number(face) !== bid.face)) {
        hints.push(fmt(_("Palifico: the face stays %s; only the quantity rises."), [facePlural(bid.face)]));
      } else if (!bid) {
        hints.push(_("Palifico: your opening face is locked for the whole round, and Pacos are not wild."));
      }
      return hints;
    }
    if (!bid) {
      if (!ranges[PACO]) hints.push(_("Pacos may not open a normal round."));
      return hints;
    }
    if (bid.face !== PACO && ranges[PACO]) {
      const least = ranges[PACO].min;
      hints.push(fmt(ngettext("Switching to Pacos needs at least %s Paco (half the bid, rounded up).",
        "Switching to Pacos needs at least %s Pacos (half the bid, rounded up).", least), [least]));
    }
    if (bid.face === PACO) {
      const back = Object.keys(ranges).map(Number).find((face) => face !== PACO);
      if (back) {
        hints.push(fmt(_("Going back from Pacos to another face needs at least %s dice (twice the bid plus one)."),
          [ranges[back].min]));
      } else {
        hints.push(_("Going back to another face would need more dice than there are in play."));
      }
    }
    return hints;
  }

  // --- the reveal --------------------------------------------------------------------------------------------

  function revealPanel(reveal, ctx) {
    const bid = reveal.bid;
    const counted = reveal.counted_faces || [bid.face];
    const values = [ctx.name(reveal.caller), ctx.name(bid.bidder), countOf(bid.quantity, bid.face)];
    const title = reveal.call === "calza" ? fmt(_("%s called Calza on %s's bid of %s"), values)
      : fmt(_("%s called Dudo on %s's bid of %s"), values);
    const rule = counted.length > 1 ? fmt(_("Counting %s and Pacos (wild)."), [facePlural(bid.face)])
      : bid.face === PACO ? _("Counting Pacos.")
        : fmt(_("Counting %s only (Palifico: Pacos are not wild)."), [facePlural(bid.face)]);
    return el("section", { class: "perudo-reveal", "data-reveal": "", "aria-label": _("Reveal") },
      el("div", { class: "perudo-reveal-head" }, el("h2", { text: title }),
        el("button", { type: "button", class: "secondary perudo-reveal-hide", "data-key": "reveal-hide",
          "aria-label": _("Hide the reveal"), text: "✕", onclick: () => { memory.hiddenReveal = revealKey(reveal); draw(); } })),
      el("p", { class: "muted", text: rule }),
      el("ul", { class: "perudo-reveal-hands" },
        ...reveal.dice.map((hand, seat) => revealHand(reveal, hand, seat, counted, ctx)).filter(Boolean)),
      el("p", { class: "perudo-reveal-total" },
        el("span", { class: "perudo-total-count", text: String(reveal.count) }),
        el("span", { text: fmt(_("counted against a bid of %s."), [bid.quantity]) }), " ",
        el("strong", { class: "perudo-reveal-result", text: resultText(reveal, ctx) })));
  }

  function revealHand(reveal, hand, seat, counted, ctx) {
    if (!hand.length) return null;
    const hits = hand.filter((face) => counted.includes(face)).length;
    const lost = reveal.losers.includes(seat);
    const gained = reveal.gainers.includes(seat);
    const change = lost ? el("span", { class: "perudo-change perudo-lost", text: _("−1 die") })
      : gained ? el("span", { class: "perudo-change perudo-gained", text: _("+1 die") }) : null;
    return el("li", { class: "perudo-reveal-hand", "data-seat": seat },
      el("span", { class: "perudo-hand-name", text: ctx.name(seat) }),
      el("span", { class: "perudo-hand-dice" }, ...hand.map((face, i) => {
        const hit = counted.includes(face);
        const node = die(face, hit ? "perudo-counted" : "perudo-uncounted", hit ? _("counted") : _("not counted"));
        node.style.setProperty("--i", i + seat * 2);
        return node;
      })),
      el("span", { class: "perudo-hand-hits", text: fmt(ngettext("%s counted", "%s counted", hits), [hits]) }),
      change);
  }

  function resultText(reveal, ctx) {
    const losers = names(reveal.losers, ctx);
    switch (reveal.result) {
      case "bid_stands": return fmt(_("The bid stands: %s loses a die."), [losers]);
      case "bid_false": return fmt(_("The bid was false: %s loses a die."), [losers]);
      case "not_exact": return fmt(_("Not exact: %s loses a die."), [losers]);
      default:
        if (reveal.gainers.length) return fmt(_("Exactly right: %s regains a die."), [names(reveal.gainers, ctx)]);
        if (reveal.losers.length) return fmt(_("Exactly right: every other player loses a die (%s)."), [losers]);
        return fmt(_("Exactly right, but %s has no die to regain."), [ctx.name(reveal.caller)]);
    }
  }

  // --- the log: one line in words per event ----------------------------------------------------------------

  function describe(event, ctx) {
    const who = (seat) => ctx.name(seat);
    switch (event.type) {
      case "first_player":
        return event.method === "random"
          ? fmt(_("%s is drawn at random to open the game."), [who(event.seat)])
          : fmt(_("%s rolled highest and opens the game."), [who(event.seat)]);
      case "roll_off": return describeRollOff(event, ctx);
      case "round_started": return describeRound(event, ctx);
      case "dice_rolled": {  // only sent to the seat that rolled (a finished game's replay may show anyone's)
        const dice = event.dice.map(faceName).join(", ");
        return event.seat === ctx.seat ? fmt(_("You rolled: %s."), [dice])
          : fmt(_("%s rolled: %s."), [who(event.seat), dice]);
      }
      case "palifico":
        return event.declared
          ? fmt(_("%s declares Palifico: Pacos are not wild and the face is locked this round."), [who(event.seat)])
          : fmt(_("Palifico round for %s: Pacos are not wild and the face is locked."), [who(event.seat)]);
      case "bid":
        return event.out_of_turn
          ? fmt(_("%s bids %s (out of turn)."), [who(event.seat), countOf(event.quantity, event.face)])
          : fmt(_("%s bids %s."), [who(event.seat), countOf(event.quantity, event.face)]);
      case "dudo":
      case "calza": return describeCall(event, ctx);
      case "die_lost":  // dice_left only with lostDiceVisible
        return event.dice_left === undefined ? fmt(_("%s loses a die."), [who(event.seat)])
          : fmt(ngettext("%s loses a die (%s die left).", "%s loses a die (%s dice left).", event.dice_left),
            [who(event.seat), event.dice_left]);
      case "die_gained":
        return event.dice_left === undefined ? fmt(_("%s regains a die."), [who(event.seat)])
          : fmt(ngettext("%s regains a die (%s die now).", "%s regains a die (%s dice now).", event.dice_left),
            [who(event.seat), event.dice_left]);
      case "no_die_to_regain":
        return fmt(_("%s was right but has no die to regain."), [who(event.seat)]);
      case "eliminated":
        return fmt(_("%s is out of the game (place %s)."), [who(event.seat), event.place]);
      case "game_over":  // the table's result: a player who left never wins (turnengine.writer.final_result)
        return fmt(_("%s wins the game!"), [winnerNames(event, ctx)]);
      default:
        return null;
    }
  }

  function describeRollOff(event, ctx) {
    const rolls = event.contenders.map((seat) => `${ctx.name(seat)} ${event.dice[seat].join("+")}`).join(", ");
    const line = fmt(_("Roll for the first player: %s."), [rolls]);
    if (event.winner !== null && event.winner !== undefined) return line;
    return `${line} ${fmt(_("Tie between %s: they roll again."), [names(event.leaders, ctx)])}`;
  }

  function describeRound(event, ctx) {
    let line = fmt(_("Round %s: %s opens."), [event.round, ctx.name(event.starter)]);
    if (event.dice_in_play !== undefined) line += ` ${fmt(_("%s in play."), [diceWords(event.dice_in_play)])}`;
    return line;
  }

  function describeCall(event, ctx) {
    const reveal = event.reveal;
    const bid = reveal.bid;
    const there = fmt(ngettext("there was %s", "there were %s", reveal.count), [countOf(reveal.count, bid.face)]);
    const line = event.type === "calza"
      ? fmt(_("%s calls Calza on %s: %s."), [ctx.name(event.seat), countOf(bid.quantity, bid.face), there])
      : fmt(_("%s calls Dudo on %s: %s."), [ctx.name(event.seat), countOf(bid.quantity, bid.face), there]);
    return `${line} ${shortResult(reveal)}`;
  }

  // The call's verdict without the dice changes: die_lost / die_gained / no_die_to_regain have their own lines.
  function shortResult(reveal) {
    return {
      bid_stands: _("The bid stands."),
      bid_false: _("The bid was false."),
      exact: _("Exactly right!"),
      not_exact: _("Not exact."),
    }[reveal.result] || "";
  }

  // --- animation: the reveal, a new bid, a new roll --------------------------------------------------------

  function animate(events, data, ctx) {
    const board = memory.board;
    if (!board || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const types = new Set(events.map((event) => event.type));
    if (types.has("dudo") || types.has("calza")) board.querySelector("[data-reveal]")?.classList.add("perudo-animate");
    if (types.has("bid")) board.querySelector("[data-current-bid]")?.classList.add("perudo-animate");
    if (types.has("dice_rolled")) board.querySelector(".perudo-my-dice")?.classList.add("perudo-animate");
  }

  // --- the result screen -------------------------------------------------------------------------------------

  function reason(result) {
    return result.reason === "last_player_standing" ? _("The last player with dice left wins.") : null;
  }

  function score(seat, data) {
    const view = data.view || {};
    if (!(view.in_game || []).includes(seat)) return _("out of dice");
    const count = diceCountOf(view, seat);
    return count === null ? _("still had dice") : diceWords(count);
  }

  function scoreTitle() { return _("Dice left"); }

  Tapete.registerGame("perudo", { render, describe, animate, reason, score, scoreTitle });
})();
