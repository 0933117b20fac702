// Spicy's board for the shared table frame (static/js/table.js): the hand, the face-down stack with its top
// declaration, the challenge window and its countdown, the reveal of a challenged card, every player's piles and
// trophies, the draw pile with World's End's rough depth, the Spice It Up! cards and the final scores.
// It draws only from the seat's view (games/spicy/rules.py documents it) and sends only actions from data.legal.
//
// Playing: choose a card in your hand, then one of the declarations the rules allow (with Change Your Luck and a
// declared 5, choose the cards to tuck, then confirm). Challenges, declines, passes and Copy Cat copies are
// buttons shown only when legal. After every card the next player waits out the challenge grace period
// (options.challengeGraceMs): a countdown is shown and the play buttons stay disabled meanwhile.
(function () {
  "use strict";
  const { el, svg, gettext: _, ngettext, interpolate: fmt } = Tapete.kit;  // static/js/table.js, its header

  const SPICES = ["chili", "wasabi", "pepper"];
  const SPICE_NAMES = { chili: () => _("Chili"), wasabi: () => _("Wasabi"), pepper: () => _("Pepper") };
  // One letter per spice, next to its colour and shape, so that no spice is told by colour alone.
  const SPICE_LETTERS = { chili: () => _("C"), wasabi: () => _("W"), pepper: () => _("P") };
  const SPICE_SHAPES = {
    chili: "M12 1.5c3.8 5 8 9.2 6.4 14.6A6.6 6.6 0 0 1 12 22.5a6.6 6.6 0 0 1-6.4-6.4C4 10.7 8.2 6.5 12 1.5z", // flame
    wasabi: "M12 2.5a9.5 9.5 0 1 1 0 19a9.5 9.5 0 1 1 0-19z", // dollop (circle)
    pepper: "M12 1.5l10.5 10.5L12 22.5L1.5 12z", // corn (diamond)
  };
  const SPICE_IT_UP_TEXTS = {
    we_love_chili: [() => _("We Love Chili!"), () => _("Wherever a 1, 2 or 3 may be declared (a new stack, after a 10), it may be declared in Chili instead.")],
    start_it_up: [() => _("Start It Up!"), () => _("After a declared 8, 9 or 10, a 1, 2 or 3 of the same spice may follow.")],
    spice_raider: [() => _("Spice Raider"), () => _("Declare a 4 to put your paw on the stack: when the next card lands, you win every card under it.")],
    change_your_luck: [() => _("Change Your Luck"), () => _("When you declare a 5, tuck up to 2 more cards under it, then draw as many.")],
    turn_it_up: [() => _("Turn It Up!"), () => _("6 and 9 count as each other when a number is challenged.")],
    copy_cat: [() => _("Copy Cat"), () => _("Right after another player's card, play a card out of turn with exactly its declaration. A copy is challenged on spice and number together.")],
  };
  const HOUSE_RULES = {
    wildFour: [() => _("A 4 is any number"), () => _("A 4 may open a stack or follow any number of the stack's spice; the next card must beat 4.")],
    chiliReverses: [() => _("Chili reverses"), () => _("Every card declared Chili reverses the direction of play.")],
  };
  const END_REASONS = {
    second_trophy: () => _("%(name)s took a second trophy and wins outright"),
    last_trophy: () => _("the last trophy was taken"),
    worlds_end: () => _("World's End reached the top of the draw pile"),
    deck_empty: () => _("the draw pile ran out"),
  };

  // UI state that is not in the view, per board element: the chosen card, a pending tuck choice, the countdown.
  const boards = new WeakMap();
  function uiOf(board) {
    if (!boards.has(board)) {
      boards.set(board, { pick: null, pending: null, tuck: [], graceUntil: 0, graceTotal: 0, timer: null,
        data: null, ctx: null, hand: "" });
    }
    return boards.get(board);
  }

  // --- words -----------------------------------------------------------------------------------------------

  function spiceName(spice) { return SPICE_NAMES[spice] ? SPICE_NAMES[spice]() : spice; }
  function declName(spice, number) { return fmt(_("%(spice)s %(number)s"), { spice: spiceName(spice), number }); }
  function cardName(card) {
    if (card === "wild-number") return _("Wild number");
    if (card === "wild-spice") return _("Wild spice");
    const [spice, number] = card.split("-");
    return declName(spice, number);
  }
  function drawText(reason, count) {
    switch (reason) {
      case "penalty": return ngettext("%(name)s draws %(count)s penalty card.", "%(name)s draws %(count)s penalty cards.", count);
      case "refill": return ngettext("%(name)s draws %(count)s card after the trophy.", "%(name)s draws %(count)s cards after the trophy.", count);
      case "tuck": return ngettext("%(name)s draws %(count)s card for the tucked one.", "%(name)s draws %(count)s cards for the tucked ones.", count);
      default: return ngettext("%(name)s draws %(count)s card.", "%(name)s draws %(count)s cards.", count);
    }
  }
  function drewText(event) {
    if (!event.cards.length) return _("You draw no card: the pile is empty.");
    const values = { cards: cardList(event.cards), count: event.cards.length };
    switch (event.reason) {
      case "penalty": return fmt(ngettext("You draw %(count)s penalty card: %(cards)s.", "You draw %(count)s penalty cards: %(cards)s.", values.count), values);
      case "refill": return fmt(_("After the trophy you draw %(cards)s."), values);
      case "tuck": return fmt(_("For the tucked cards you draw %(cards)s."), values);
      default: return fmt(_("You draw %(cards)s."), values);
    }
  }
  function cardList(cards) { return cards.map(cardName).join(", "); }
  function traitName(trait) {
    return { spice: _("the spice"), number: _("the number"), both: _("spice and number") }[trait] || trait;
  }

  // --- drawing blocks ----------------------------------------------------------------------------------------

  function spiceIcon(spice, extraClass) {
    return svg("svg", { viewBox: "0 0 24 24", class: `spicy-icon spicy-spice-${spice} ${extraClass || ""}`, "aria-hidden": "true",
      focusable: "false" }, svg("path", { d: SPICE_SHAPES[spice] }));
  }

  function trophyIcon(filled) {
    return svg("svg", { viewBox: "0 0 24 24", class: `spicy-trophy${filled ? " spicy-filled" : ""}`, "aria-hidden": "true" },
      svg("path", { d: "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.4A5 5 0 0 1 13 14.8V18h3v3H8v-3h3v-3.2A5 5 0 0 1 8.4 12H8a4 4 0 0 1-4-4V5h3zm-1 4v1a2 2 0 0 0 1.3 1.9L7 7zm12 0-.3 2.9A2 2 0 0 0 18 8V7z" }));
  }

  // A card face: number and spice letter in the corners, the spice's shape in the middle; wilds look different.
  function cardFace(el, card) {
    if (card === "wild-number" || card === "wild-spice") {
      const number = card === "wild-number";
      return el("span", { class: `spicy-card-face spicy-wild spicy-${card}` },
        el("span", { class: "spicy-corner", "aria-hidden": "true", text: number ? "#" : "★" }),
        number ? el("span", { class: "spicy-wild-art", "aria-hidden": "true", text: "1–10" })
          : el("span", { class: "spicy-wild-art", "aria-hidden": "true" }, ...SPICES.map((spice) => spiceIcon(spice))),
        el("span", { class: "spicy-wild-label", "aria-hidden": "true", text: number ? _("any number") : _("any spice") }));
    }
    const [spice, number] = card.split("-");
    return el("span", { class: `spicy-card-face spicy-spice-${spice}` },
      el("span", { class: "spicy-corner", "aria-hidden": "true" }, el("b", { text: number }), SPICE_LETTERS[spice]()),
      spiceIcon(spice, "spicy-art"),
      el("span", { class: "spicy-corner spicy-bottom", "aria-hidden": "true" }, el("b", { text: number }), SPICE_LETTERS[spice]()));
  }

  // A declaration chip: the spice's shape, number and letter on the spice's colour.
  function declChip(el, spice, number, extraClass) {
    return el("span", { class: `spicy-decl spicy-spice-${spice} ${extraClass || ""}`, "aria-hidden": "true" },
      spiceIcon(spice), el("b", { text: String(number) }), el("span", { class: "spicy-letter", text: SPICE_LETTERS[spice]() }));
  }

  // A control's name in words, for screen readers; what it shows (corners, chips) is aria-hidden. (An aria-label
  // would differ from the visible "7P", which speech-input users say: axe's label-content-name-mismatch.)
  function spokenName(el, text) { return el("span", { class: "visually-hidden", text }); }

  function cardBack(el, extraClass) {
    return el("span", { class: `spicy-card-back ${extraClass || ""}`, "aria-hidden": "true" });
  }

  // --- status --------------------------------------------------------------------------------------------------

  function statusText(view, data, ctx) {
    const me = ctx.seat;
    const legal = ctx.live ? data.legal || [] : [];
    const may = (type) => legal.some((action) => action.type === type);
    if (view.phase === "over" || data.status === "finished") return _("Game over.");
    if (view.phase === "setup") return _("Shuffling…");
    if (view.phase === "last_card" && view.last_card) {
      const values = { name: ctx.name(view.last_card.seat) };
      if (view.last_card.seat === me) return _("You played your last card: the others may challenge it or decline.");
      if (may("challenge") && may("play")) return fmt(_("%(name)s played their last card: challenge it, decline, or play on it."), values);
      if (may("challenge")) return fmt(_("%(name)s played their last card: challenge it or decline."), values);
      return fmt(_("%(name)s played their last card: waiting for the others to challenge or decline."), values);
    }
    const decl = view.top ? declName(view.top.spice, view.top.number) : "";
    if (view.current === me && (may("play") || may("pass"))) {
      if (view.must_lead) return _("You lost the challenge: start a new stack. Choose a card, then a declaration.");
      if (!view.top) return _("Your turn: start a new stack (choose a card, then a declaration) or pass.");
      if (may("challenge")) return fmt(_("Your turn: challenge %(decl)s, play on it (choose a card, then a declaration) or pass."), { decl });
      return fmt(_("Your turn: play on %(decl)s (choose a card, then a declaration) or pass."), { decl });
    }
    const turn = fmt(view.must_lead ? _("%(name)s lost the challenge and starts a new stack.") : _("%(name)s's turn."),
      { name: ctx.name(view.current) });
    if (may("copy")) return `${turn} ${fmt(_("You may challenge %(decl)s or copy it (Copy Cat)."), { decl })}`;
    if (may("challenge")) return `${turn} ${fmt(_("You may challenge %(decl)s."), { decl })}`;
    return turn;
  }

  // --- players -----------------------------------------------------------------------------------------------

  function seatOrder(view, ctx) {
    const first = ctx.seat === null || ctx.seat === undefined ? 0 : ctx.seat;
    return Array.from({ length: view.num_players }, (unused, k) => (first + k) % view.num_players);
  }

  function seatTile(el, view, ctx, seat) {
    const current = view.current === seat && view.phase !== "over";
    const hand = view.hand_sizes[seat], won = view.won_counts[seat], trophies = view.trophies[seat];
    const lastCard = view.last_card && view.last_card.seat === seat;
    const facts = [
      fmt(ngettext("%(count)s card in hand", "%(count)s cards in hand", hand), { count: hand }),
      fmt(ngettext("%(count)s card won", "%(count)s cards won", won), { count: won }),
      fmt(ngettext("%(count)s trophy", "%(count)s trophies", trophies), { count: trophies }),
    ];
    const name = ctx.name(seat) + (seat === ctx.seat ? ` (${_("you")})` : "");
    const label = [name, current ? _("to play") : null, lastCard ? _("last card") : null, ...facts].filter(Boolean).join(", ");
    return el("li", { class: `spicy-seat${current ? " spicy-current" : ""}${seat === ctx.seat ? " spicy-mine" : ""}`,
      "data-seat": seat, "data-won": won, "data-hand-size": hand, "data-label": label },
    el("span", { class: "visually-hidden", text: label }),
    el("span", { class: "spicy-seat-name", "aria-hidden": "true" }, current ? el("span", { class: "spicy-turn-arrow", text: "▶ " }) : null, name),
    el("span", { class: "spicy-seat-facts", "aria-hidden": "true" },
      el("span", { class: "spicy-fact", title: _("cards in hand") }, cardBack(el, "spicy-mini"), el("b", { text: String(hand) }),
        el("small", { text: _("in hand") })),
      el("span", { class: "spicy-fact", title: _("cards won") }, el("span", { class: "spicy-won-pile" }), el("b", { text: String(won) }),
        el("small", { text: _("won") })),
      el("span", { class: "spicy-fact", title: _("trophies") }, trophyIcon(trophies > 0), el("b", { text: String(trophies) }))),
    lastCard ? el("span", { class: "spicy-seat-badge", "aria-hidden": "true", text: _("last card!") }) : null);
  }

  function seatsPanel(el, view, ctx) {
    const direction = view.options.chiliReverses
      ? el("p", { class: "spicy-direction", text: view.direction === 1 ? _("Direction of play: normal") : _("Direction of play: reversed") })
      : null;
    return el("section", { class: "spicy-seats-area", "aria-label": _("Players' cards") },
      el("ul", { class: "spicy-seats" }, ...seatOrder(view, ctx).map((seat) => seatTile(el, view, ctx, seat))), direction);
  }

  // --- the stack, the challenge window, the reveal, the draw pile ------------------------------------------------

  function stackPanel(el, view, ctx, ui) {
    const size = view.stack_size;
    const top = view.top;
    const label = top
      ? fmt(ngettext("Spicy stack: %(count)s card; on top %(name)s declared %(decl)s.",
        "Spicy stack: %(count)s cards; on top %(name)s declared %(decl)s.", size),
      { count: size, name: ctx.name(top.owner), decl: declName(top.spice, top.number) })
      : _("Spicy stack: empty, the next card starts a new stack.");
    const backs = Array.from({ length: Math.min(size, 4) }, (unused, k) => cardBack(el, `spicy-layer spicy-layer-${k}`));
    const pile = el("div", { class: `spicy-pile${size ? "" : " spicy-empty"}`, role: "img", "aria-label": label, "data-stack-size": size },
      ...backs,
      top ? el("div", { class: "spicy-top", "data-top": `${top.spice}-${top.number}` }, declChip(el, top.spice, top.number, "spicy-big"),
        top.copy ? el("span", { class: "spicy-copy-badge", text: _("copy") }) : null) : el("span", { class: "spicy-empty-text", text: _("new stack") }));
    const caption = el("p", { class: "spicy-stack-caption" },
      top ? fmt(_("%(decl)s by %(name)s"), { decl: declName(top.spice, top.number), name: ctx.name(top.owner) }) : _("Empty stack"),
      el("br"), fmt(ngettext("%(count)s card", "%(count)s cards", size), { count: size }));
    return el("section", { class: "spicy-stack-area", "aria-labelledby": "spicy-stack-title" },
      el("h2", { id: "spicy-stack-title", class: "spicy-title", text: _("Stack") }),
      pile, caption);
  }

  // Under the stack and the draw pile, the whole felt wide: the challenge window and the stack's declarations.
  function stackNotes(el, view, ctx, ui) {
    const note = windowNote(el, view, ctx, ui), history = stackHistory(el, view, ctx);
    return note || history ? el("div", { class: "spicy-table-notes" }, note, history) : null;
  }

  // Every declaration on the stack, bottom first; your own entries show your real card.
  function stackHistory(el, view, ctx) {
    if (!view.stack.length) return null;
    return el("details", { class: "spicy-history" },
      el("summary", { text: _("Declarations on the stack") }),
      el("ol", {}, ...view.stack.map((entry) => el("li", {},
        declChip(el, entry.spice, entry.number),
        ` ${declName(entry.spice, entry.number)} · ${ctx.name(entry.owner)}`,
        entry.copy ? ` · ${_("copy")}` : "",
        entry.tucked ? ` · ${fmt(ngettext("%(count)s tucked", "%(count)s tucked", entry.tucked), { count: entry.tucked })}` : "",
        entry.card ? ` · ${fmt(_("your card: %(card)s"), { card: cardName(entry.card) })}` : ""))));
  }

  function graceLeft(ui) { return Math.max(0, ui.graceUntil - Date.now()); }

  // The challenge window: the countdown while the next player must wait, then "may still be challenged".
  function windowNote(el, view, ctx, ui) {
    if (!view.top || !view.top_challengeable || view.phase === "over") return null;
    const left = graceLeft(ui);
    if (left > 0 && ctx.live) {
      const bar = el("span", { class: "spicy-grace-bar", "aria-hidden": "true" }, el("span", { class: "spicy-grace-fill", "data-grace-fill": "" }));
      bar.firstChild.style.transform = `scaleX(${left / (ui.graceTotal || 1)})`;
      return el("div", { class: "spicy-window spicy-counting", "data-grace": "", role: "timer" },
        el("span", { "data-grace-text": "" }, graceText(left, view, ctx)), bar);
    }
    const text = view.phase === "last_card"
      ? _("The last card may be challenged until every opponent has declined.")
      : _("The top card may be challenged until the next card lands.");
    return el("div", { class: "spicy-window spicy-open" }, text);
  }

  function graceText(left, view, ctx) {
    const seconds = Math.ceil(left / 1000);
    if (view.phase === "last_card" && view.options.lastCardDeclineRequired && view.last_card) {
      return fmt(ngettext("Challenge window: %(seconds)s second left to challenge or decline %(name)s's last card.",
        "Challenge window: %(seconds)s seconds left to challenge or decline %(name)s's last card.", seconds),
      { name: ctx.name(view.last_card.seat), seconds });
    }
    const mover = ctx.name(view.current);
    return fmt(ngettext("Challenge window: %(name)s may play in %(seconds)s second.",
      "Challenge window: %(name)s may play in %(seconds)s seconds.", seconds), { name: mover, seconds });
  }

  // The last challenge lies over the felt (it never pushes your hand down) until a card lands on the new stack
  // or the player hides it (✕).
  function revealKey(last) { return `${last.challenger}:${last.owner}:${last.card}:${last.stack_count}`; }

  function revealPanel(el, view, ctx, ui) {
    const last = view.last_challenge;
    if (!last || view.stack_size > 0 || (ui && ui.hiddenReveal === revealKey(last))) return null;
    const outcome = last.challenger_won
      ? _("%(challenger)s was right and takes the stack (%(count)s).")
      : _("%(owner)s's claim held: %(owner)s takes the stack (%(count)s).");
    const text = [
      fmt(_("%(challenger)s challenged %(trait)s of %(owner)s's %(decl)s."), {
        challenger: ctx.name(last.challenger), owner: ctx.name(last.owner), trait: traitName(last.trait),
        decl: declName(last.spice, last.number) }),
      fmt(_("It was: %(card)s."), { card: cardName(last.card) }),
      fmt(outcome, { challenger: ctx.name(last.challenger), owner: ctx.name(last.owner),
        count: fmt(ngettext("%(count)s card", "%(count)s cards", last.stack_count), { count: last.stack_count }) }),
    ];
    return el("section", { class: `spicy-reveal ${last.challenger_won ? "spicy-challenger-won" : "spicy-owner-won"}`, "aria-labelledby": "spicy-reveal-title" },
      el("div", { class: "spicy-reveal-head" },
        el("h2", { id: "spicy-reveal-title", class: "spicy-title", text: _("Last challenge") }),
        ui ? el("button", { type: "button", class: "secondary spicy-reveal-hide", "data-key": "reveal-hide",
          "aria-label": _("Hide the reveal"), text: "✕",
          onclick: () => { ui.hiddenReveal = revealKey(last); redraw(document.querySelector('[data-game="spicy"] [data-board]')); } }) : null),
      el("div", { class: "spicy-reveal-body" },
        el("div", { class: "spicy-flipper", "data-reveal": "" },
          el("span", { class: "spicy-card spicy-flip-front", role: "img", "aria-label": fmt(_("Revealed card: %(card)s"), { card: cardName(last.card) }),
            "data-card": last.card }, cardFace(el, last.card)),
          cardBack(el, "spicy-flip-back")),
        el("p", { class: "spicy-reveal-text", "data-reveal-text": "" },
          el("span", { class: "spicy-claim" }, declChip(el, last.spice, last.number), ` ${text[0]}`), el("br"), text[1], el("br"),
          el("strong", { text: text[2] }))));
  }

  function drawPanel(el, view) {
    const pile = view.draw_pile;
    const worldsEnd = pile.worlds_end;
    let endText = _("No World's End: the game ends when the draw pile runs out.");
    let gauge = null;
    if (worldsEnd) {
      const above = worldsEnd.approx_cards_above, spread = worldsEnd.uncertainty;
      endText = above > spread
        ? fmt(_("World's End: about %(count)s cards down (give or take %(spread)s)."), { count: above, spread })
        : fmt(_("World's End is near the top: at most %(count)s cards down."), { count: above + spread });
      const total = Math.max(pile.size, 1);
      const from = Math.max(0, above - spread) / total, to = Math.min(total, above + spread) / total;
      const zone = el("span", { class: "spicy-worlds-end-zone" });
      zone.style.left = `${from * 100}%`;
      zone.style.width = `${Math.max(to - from, 0.02) * 100}%`;
      gauge = el("span", { class: "spicy-gauge", "aria-hidden": "true" }, el("span", { class: "spicy-gauge-top", text: _("top") }), zone);
    }
    return el("section", { class: "spicy-draw-area", "aria-labelledby": "spicy-draw-title" },
      el("h2", { id: "spicy-draw-title", class: "spicy-title", text: _("Draw pile") }),
      el("div", { class: "spicy-draw-pile" }, cardBack(el, "spicy-draw"),
        el("span", { class: "spicy-draw-count", text: fmt(ngettext("%(count)s card", "%(count)s cards", pile.size), { count: pile.size }) })),
      gauge, el("p", { class: "spicy-worlds-end-text" }, endText),
      el("p", { class: "spicy-trophies-left" },
        el("span", { class: "visually-hidden", text: fmt(_("Trophies left: %(count)s of 3"), { count: view.trophies_left }) }),
        el("span", { "aria-hidden": "true", text: `${_("Trophies left")} ` }),
        ...Array.from({ length: 3 }, (unused, k) => trophyIcon(k < view.trophies_left))));
  }

  // --- actions -------------------------------------------------------------------------------------------------

  // Is this move held back by the grace period right now (the server would answer too_early)?
  function heldBack(action, view, ui) {
    if (graceLeft(ui) <= 0) return false;
    if (action.type === "play") return true;
    return action.type === "pass" && (view.spice_it_up.includes("copy_cat") || view.phase === "last_card");
  }

  function actionsPanel(el, view, data, ctx, ui) {
    const legal = data.legal || [];
    const buttons = [];
    for (const action of legal) {
      if (action.type === "challenge") {
        const top = view.top;
        const text = action.trait === "spice" ? fmt(_("Wrong spice! (not %(spice)s)"), { spice: spiceName(top.spice) })
          : action.trait === "number" ? fmt(_("Wrong number! (not %(number)s)"), { number: top.number })
            : fmt(_("Wrong! (not %(decl)s)"), { decl: declName(top.spice, top.number) });
        buttons.push(el("button", { type: "button", class: "danger spicy-challenge", "data-key": `challenge-${action.trait}`,
          "data-challenge": action.trait, text, onclick: () => ctx.act(action) }));
      } else if (action.type === "decline") {
        buttons.push(el("button", { type: "button", class: "secondary", "data-key": "decline", "data-decline": "",
          text: _("No challenge"), onclick: () => ctx.act(action) }));
      } else if (action.type === "pass") {
        buttons.push(el("button", { type: "button", class: "secondary", "data-key": "pass", "data-pass": "",
          disabled: heldBack(action, view, ui), text: _("Pass and draw a card"), onclick: () => ctx.act(action) }));
      }
    }
    if (!buttons.length) return null;
    return el("div", { class: "actions spicy-actions", role: "group", "aria-label": _("Your options") }, ...buttons);
  }

  // --- the hand and the declaration picker -----------------------------------------------------------------------

  function reconcile(ui, view, legal) {
    const hand = view.hand || [];
    const key = JSON.stringify(hand);
    if (key !== ui.hand) { ui.hand = key; ui.pick = null; ui.pending = null; ui.tuck = []; }
    const playable = (card) => legal.some((action) => (action.type === "play" || action.type === "copy") && action.card === card);
    if (ui.pick && !playable(ui.pick.card)) { ui.pick = null; ui.pending = null; ui.tuck = []; }
    if (ui.pending && !pendingActions(ui, legal).length) { ui.pending = null; ui.tuck = []; }
  }

  function pendingActions(ui, legal) {
    if (!ui.pick || !ui.pending) return [];
    return legal.filter((action) => action.type === ui.pending.kind && action.card === ui.pick.card
      && (ui.pending.kind === "copy" || (action.declare.spice === ui.pending.spice && action.declare.number === ui.pending.number)));
  }

  function handPanel(el, board, view, data, ctx, ui) {
    if (!view.hand) return null;
    const legal = ctx.live ? data.legal || [] : [];
    const handCards = view.hand.map((card, index) => {
      const actionable = legal.some((action) => (action.type === "play" || action.type === "copy") && action.card === card);
      const picked = ui.pick && ui.pick.index === index;
      const face = cardFace(el, card);
      if (!actionable) return el("li", {}, el("span", { class: "spicy-card", role: "img", "aria-label": cardName(card), "data-card": card }, face));
      return el("li", {}, el("button", {
        type: "button", class: `spicy-card${picked ? " spicy-picked" : ""}`, "aria-pressed": picked ? "true" : "false",
        "data-card": card, "data-key": `card-${index}`,
        onclick: () => { pickCard(ui, index, card); redraw(board); },
      }, spokenName(el, cardName(card)), face));
    });
    const count = view.hand.length;
    return el("section", { class: "spicy-hand-area", "aria-labelledby": "spicy-hand-title" },
      el("h2", { id: "spicy-hand-title", class: "spicy-title",
        text: fmt(ngettext("Your hand (%(count)s card)", "Your hand (%(count)s cards)", count), { count }) }),
      count ? el("ul", { class: "spicy-hand", "data-hand": "" }, ...handCards)
        : el("p", { class: "spicy-hint spicy-small", "data-hand": "", text: _("No cards in hand.") }),
      pickerPanel(el, board, view, legal, ctx, ui));
  }

  function pickCard(ui, index, card) {
    const same = ui.pick && ui.pick.index === index;
    ui.pick = same ? null : { index, card };
    ui.pending = null;
    ui.tuck = [];
  }

  function pickerPanel(el, board, view, legal, ctx, ui) {
    const hasPlays = legal.some((action) => action.type === "play" || action.type === "copy");
    if (!hasPlays) return null;
    if (!ui.pick) return el("p", { class: "spicy-hint", text: _("Choose a card to play.") });
    if (ui.pending) return tuckPanel(el, board, view, legal, ctx, ui);
    const card = ui.pick.card;
    const plays = legal.filter((action) => action.type === "play" && action.card === card);
    const copies = legal.filter((action) => action.type === "copy" && action.card === card);
    const parts = [el("p", { class: "spicy-hint" }, fmt(_("Declare your %(card)s as:"), { card: cardName(card) }))];
    if (card.startsWith("wild-")) {
      parts.push(el("p", { class: "spicy-hint spicy-small", text: card === "wild-number"
        ? _("A wild number survives any number challenge but fails every spice challenge.")
        : _("A wild spice survives any spice challenge but fails every number challenge.") }));
    }
    if (plays.length && heldBack(plays[0], view, ui)) {
      parts.push(el("p", { class: "spicy-hint spicy-small", text: _("The others may still challenge: you can play when the countdown ends.") }));
    }
    if (plays.length) parts.push(declarationGrid(el, board, view, plays, card, ctx, ui));
    if (copies.length) {
      const top = view.top;
      parts.push(el("div", { class: "actions" }, el("button", {
        type: "button", class: "spicy-copy", "data-key": "copy", "data-copy": "",
        text: fmt(_("Copy Cat: copy %(decl)s now"), { decl: declName(top.spice, top.number) }),
        onclick: () => (copies.some((action) => action.tuck) ? openTuck(board, ui, { kind: "copy" }) : ctx.act(copies[0])),
      })));
    }
    return el("div", { class: "spicy-picker", role: "group", "aria-label": _("Declaration") }, ...parts);
  }

  // The legal declarations for the chosen card, one row per spice; a true declaration is marked.
  function declarationGrid(el, board, view, plays, card, ctx, ui) {
    const seen = new Map();
    for (const action of plays) {
      const key = `${action.declare.spice}-${action.declare.number}`;
      if (!seen.has(key)) seen.set(key, []);
      seen.get(key).push(action);
    }
    const rows = SPICES.map((spice) => {
      const buttons = [...seen.entries()].filter(([, actions]) => actions[0].declare.spice === spice).map(([key, actions]) => {
        const { number } = actions[0].declare;
        const honest = key === card;
        const held = heldBack(actions[0], view, ui);
        const label = declName(spice, number) + (honest ? ` (${_("true")})` : "");
        return el("button", {
          type: "button", class: `spicy-declare${honest ? " spicy-honest" : ""}`, "data-key": `declare-${key}`,
          "data-declare": key, disabled: held,
          onclick: () => (actions.some((action) => action.tuck)
            ? openTuck(board, ui, { kind: "play", spice, number }) : ctx.act(actions[0])),
        }, spokenName(el, label), declChip(el, spice, number), honest ? el("span", { class: "spicy-honest-mark", "aria-hidden": "true", text: "✓" }) : null);
      });
      if (!buttons.length) return null;
      return el("div", { class: "spicy-decl-row" },
        el("span", { class: "spicy-row-label", "aria-hidden": "true" }, spiceIcon(spice), ` ${spiceName(spice)}`), ...buttons);
    });
    return el("div", { class: "spicy-decl-grid" }, ...rows);
  }

  function openTuck(board, ui, pending) { ui.pending = pending; ui.tuck = []; redraw(board); }

  // Change Your Luck: pick up to two more cards to tuck under the 5, then confirm.
  function tuckPanel(el, board, view, legal, ctx, ui) {
    const actions = pendingActions(ui, legal);
    const chosen = ui.tuck.map((index) => view.hand[index]).sort();
    const match = actions.find((action) => JSON.stringify([...(action.tuck || [])].sort()) === JSON.stringify(chosen));
    const decl = ui.pending.kind === "copy" ? declName(view.top.spice, view.top.number) : declName(ui.pending.spice, ui.pending.number);
    const held = match && heldBack(match, view, ui);
    const toggles = view.hand.map((card, index) => {
      if (index === ui.pick.index) return null;
      const on = ui.tuck.includes(index);
      return el("li", {}, el("button", {
        type: "button", class: `spicy-card spicy-small${on ? " spicy-picked" : ""}`, "aria-pressed": on ? "true" : "false",
        "data-key": `tuck-${index}`, "data-tuck": card,
        disabled: !on && ui.tuck.length >= 2,
        onclick: () => { ui.tuck = on ? ui.tuck.filter((k) => k !== index) : [...ui.tuck, index]; redraw(board); },
      }, spokenName(el, fmt(_("Tuck %(card)s"), { card: cardName(card) })), cardFace(el, card)));
    });
    return el("div", { class: "spicy-picker spicy-tuck", role: "group", "aria-label": _("Change Your Luck") },
      el("p", { class: "spicy-hint" }, fmt(_("Change Your Luck: tuck up to 2 more cards under your %(card)s declared %(decl)s, then draw as many."),
        { card: cardName(ui.pick.card), decl })),
      el("ul", { class: "spicy-hand" }, ...toggles),
      el("div", { class: "actions" },
        el("button", { type: "button", "data-key": "tuck-confirm", "data-tuck-confirm": "", disabled: !match || held,
          text: fmt(ngettext("Play, tucking %(count)s card", "Play, tucking %(count)s cards", chosen.length), { count: chosen.length }),
          onclick: () => match && ctx.act(match) }),
        el("button", { type: "button", class: "secondary", "data-key": "tuck-cancel", text: _("Back"),
          onclick: () => { ui.pending = null; ui.tuck = []; redraw(board); } })));
  }

  // --- variants and final scores ---------------------------------------------------------------------------------

  function variantsPanel(el, view) {
    const items = view.spice_it_up.map((id) => {
      const [title, text] = SPICE_IT_UP_TEXTS[id] || [() => id, () => ""];
      return el("li", { class: "spicy-variant spicy-spice-it-up" }, el("span", { class: "spicy-variant-badge", text: _("Spice It Up!") }),
        el("strong", { text: title() }), el("span", { text: text() }));
    });
    for (const [option, [title, text]] of Object.entries(HOUSE_RULES)) {
      if (view.options[option]) {
        items.push(el("li", { class: "spicy-variant spicy-house" },
          el("span", { class: "spicy-variant-badge spicy-house-badge", text: _("House rule") }), el("strong", { text: title() }), el("span", { text: text() })));
      }
    }
    if (!items.length) return null;
    return el("details", { class: "spicy-variants-area" },
      el("summary", { class: "spicy-title", text: _("Spice It Up! and house rules") }),
      el("ul", { class: "spicy-variants" }, ...items));
  }

  function scoresPanel(el, view, ctx) {
    const result = view.result;
    if (!result) return null;
    const reason = END_REASONS[result.reason]
      ? fmt(END_REASONS[result.reason](), { name: ctx.name(result.ranking[0][0]) }) : result.reason;
    const winners = result.ranking[0];
    const rows = result.ranking.flat().map((seat) => el("tr", { class: winners.includes(seat) ? "spicy-winner" : "" },
      el("th", { scope: "row" }, winners.includes(seat) ? trophyIcon(true) : null, ` ${ctx.name(seat)}`),
      el("td", { text: String(view.won_counts[seat]) }),
      el("td", { text: `${view.trophies[seat]} × 10` }),
      el("td", { text: view.hand_sizes[seat] ? `−${view.hand_sizes[seat]}` : "0" }),
      el("td", {}, el("strong", { text: String(result.scores[seat]) }))));
    return el("section", { class: "spicy-scores", "aria-labelledby": "spicy-scores-title" },
      el("h2", { id: "spicy-scores-title", class: "spicy-title", text: _("Final scores") }),
      el("p", { text: fmt(_("The game ended: %(reason)s."), { reason }) }),
      el("div", { class: "spicy-table-scroll", tabindex: "0", role: "group", "aria-label": _("Score table") }, el("table", {},
        el("thead", {}, el("tr", {}, ...[_("Player"), _("Cards won"), _("Trophies"), _("Cards in hand"), _("Score")]
          .map((title) => el("th", { scope: "col", text: title })))),
        el("tbody", {}, ...rows))));
  }

  // --- render, countdown, animation ---------------------------------------------------------------------------

  function redraw(board) {
    const ui = uiOf(board);
    if (ui.data) render(board, ui.data, ui.ctx);
  }

  // Did a card just land (or, when a last card need not be declined by all, did someone decline it)? Then the
  // grace period starts again: the server counts it from the last action.
  function landedEvents(events, view) {
    const declineRestarts = view.phase === "last_card" && !view.options.lastCardDeclineRequired;
    return events.some((event) => event.type === "play" || event.type === "copy" || (event.type === "decline" && declineRestarts));
  }

  // A new version: start the grace countdown when a card has just landed (live frames only, not snapshots).
  function onNewData(board, ui, data, ctx) {
    const view = data.view;
    const grace = (view.options && view.options.challengeGraceMs) || 0;
    const applies = view.phase === "turn" || view.phase === "last_card";
    if (ctx.live && !data.snapshot && grace > 0 && applies && view.top_challengeable && landedEvents(data.events || [], view)) {
      ui.graceUntil = Date.now() + grace;
      ui.graceTotal = grace;
      if (!ui.timer) ui.timer = setInterval(() => tick(board), 100);
    }
    if (!view.top_challengeable) ui.graceUntil = 0;
  }

  function tick(board) {
    const ui = uiOf(board);
    const left = graceLeft(ui);
    if (left <= 0 || !board.isConnected) {
      clearInterval(ui.timer);
      ui.timer = null;
      redraw(board);
      return;
    }
    const text = board.querySelector("[data-grace-text]");
    const fill = board.querySelector("[data-grace-fill]");
    const view = ui.data.view;
    if (text) text.textContent = graceText(left, view, ui.ctx);
    if (fill) fill.style.transform = `scaleX(${left / (ui.graceTotal || 1)})`;
  }

  function render(board, data, ctx) {
    const el = ctx.el;
    const ui = uiOf(board);
    const view = data.view;
    if (data !== ui.data) { if (view && view.game === "spicy") onNewData(board, ui, data, ctx); ui.data = data; ui.ctx = ctx; }
    if (!view || view.phase === undefined) {
      board.replaceChildren(el("p", { class: "muted", text: _("Waiting for the game to start…") }));
      return;
    }
    reconcile(ui, view, ctx.live ? data.legal || [] : []);
    const focused = board.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    const live = ctx.live && ctx.seat !== null;
    board.replaceChildren(el("div", { class: `spicy-board spicy-phase-${view.phase}`, "data-phase": view.phase },
      scoresPanel(el, view, ctx),
      // Two columns on a wide, low board (board.css): the table on the left, your hand and moves on the right.
      el("div", { class: "spicy-side spicy-left" },
        seatsPanel(el, view, ctx),
        el("div", { class: "spicy-table" }, stackPanel(el, view, ctx, ui), revealPanel(el, view, ctx, ui), drawPanel(el, view),
          stackNotes(el, view, ctx, ui)),
        variantsPanel(el, view)),
      el("div", { class: "spicy-side spicy-right" },
        view.result ? null : el("p", { class: `spicy-status${view.current === ctx.seat && live ? " spicy-my-turn" : ""}`, "data-status": "", "data-key": "status", tabindex: "-1" }, statusText(view, data, ctx)),
        live ? actionsPanel(el, view, data, ctx, ui) : null,
        handPanel(el, board, view, data, ctx, ui))));
    // Keep keyboard focus on the same control; if it is gone (the card was played), move it to the status line.
    if (focused) (board.querySelector(`[data-key="${focused}"]`) || board.querySelector("[data-status]"))?.focus();
    if (ui.pick) showPicker(board);
  }

  // A picked card's declarations open under the hand: on a small screen, scroll them into view, but never so far
  // that the hand (its heading, the picked card) slides under the status line, which stays on top (board.css).
  function showPicker(board) {
    const picker = board.querySelector(".spicy-picker");
    const hand = board.querySelector(".spicy-hand-area");
    if (!picker || !hand) return;
    let scroller = board;
    while (scroller.parentElement && !/auto|scroll/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    const below = picker.getBoundingClientRect().bottom - scroller.getBoundingClientRect().bottom;
    if (below <= 0) return;
    scroller.scrollTop += below;
    const status = board.querySelector("[data-status]");
    const overlap = status ? status.getBoundingClientRect().bottom + 4 - hand.getBoundingClientRect().top : 0;
    if (overlap > 0) scroller.scrollTop -= overlap;
  }

  function animate(events, data) {
    const board = document.querySelector('[data-game="spicy"] [data-board]');
    if (!board) return;
    const replay = (node, name) => { if (!node) return; node.classList.remove(name); void node.offsetWidth; node.classList.add(name); };
    if (events.some((event) => event.type === "challenge")) replay(board.querySelector("[data-reveal]"), "spicy-flipping");
    if (events.some((event) => event.type === "play" || event.type === "copy")) replay(board.querySelector("[data-top]"), "spicy-landing");
    if (data.view && events.some((event) => event.type === "raid")) replay(board.querySelector(".spicy-pile"), "spicy-raided");
  }

  // --- the game log ------------------------------------------------------------------------------------------

  function describe(event, ctx) {
    const name = (seat) => ctx.name(seat);
    switch (event.type) {
      case "shuffle": {
        const parts = [fmt(_("The cards are shuffled and dealt, %(count)s each; %(pile)s cards are left to draw. %(name)s starts."),
          { count: event.hand_sizes[0], pile: event.draw_pile, name: name(event.first_player) })];
        if (event.spice_it_up.length) {
          parts.push(fmt(_("Spice It Up!: %(cards)s."), { cards: event.spice_it_up.map((id) => (SPICE_IT_UP_TEXTS[id] ? SPICE_IT_UP_TEXTS[id][0]() : id)).join(", ") }));
        }
        return parts.join(" ");
      }
      case "deal": return fmt(_("Your hand: %(cards)s."), { cards: cardList(event.cards) });
      case "play": case "copy": {
        const decl = declName(event.spice, event.number);
        let line = event.type === "copy"
          ? fmt(_("%(name)s copies %(decl)s out of turn."), { name: name(event.seat), decl })
          : fmt(_("%(name)s plays a card as %(decl)s."), { name: name(event.seat), decl });
        if (event.tucked) line += ` ${fmt(ngettext("They tuck %(count)s card under it.", "They tuck %(count)s cards under it.", event.tucked), { count: event.tucked })}`;
        return `${line} ${fmt(ngettext("%(count)s card left in hand.", "%(count)s cards left in hand.", event.hand_size), { count: event.hand_size })}`;
      }
      case "played_card": {
        const line = fmt(_("Your card was %(card)s."), { card: cardName(event.card) });
        return event.tucked_cards.length ? `${line} ${fmt(_("Tucked: %(cards)s."), { cards: cardList(event.tucked_cards) })}` : line;
      }
      case "reverse": return event.direction === 1 ? _("Chili! Play goes in the normal direction again.") : _("Chili! The direction of play is reversed.");
      case "raid": return fmt(ngettext("Spice Raider: %(name)s wins %(count)s card from under the paw.",
        "Spice Raider: %(name)s wins %(count)s cards from under the paw.", event.count), { name: name(event.seat), count: event.count });
      case "pass": return fmt(_("%(name)s passes."), { name: name(event.seat) });
      case "draw": {
        if (event.seat === ctx.seat) return null; // the private "drew" line says more
        return fmt(drawText(event.reason, event.count), { name: name(event.seat), count: event.count });
      }
      case "drew": return drewText(event);
      case "last_card": return fmt(_("%(name)s plays their last card!"), { name: name(event.seat) });
      case "decline": return fmt(_("%(name)s does not challenge."), { name: name(event.seat) });
      case "challenge": {
        const values = { name: name(event.seat), owner: name(event.owner), decl: declName(event.spice, event.number),
          trait: traitName(event.trait), card: cardName(event.card) };
        const claim = fmt(_("%(name)s challenges %(trait)s of %(owner)s's %(decl)s: it is %(card)s."), values);
        return `${claim} ${fmt(event.challenger_won ? _("%(name)s was right.") : _("%(owner)s's claim holds."), values)}`;
      }
      case "stack_won": return fmt(ngettext("%(name)s takes the stack (%(count)s card).", "%(name)s takes the stack (%(count)s cards).", event.count),
        { name: name(event.seat), count: event.count });
      case "trophy": return fmt(ngettext("%(name)s wins a trophy! %(left)s trophy left.", "%(name)s wins a trophy! %(left)s trophies left.", event.trophies_left),
        { name: name(event.seat), left: event.trophies_left });
      case "worlds_end": return _("World's End reaches the top of the draw pile!");
      case "deck_empty": return _("The draw pile is empty.");
      case "game_over": {
        const reason = END_REASONS[event.reason] ? fmt(END_REASONS[event.reason](), { name: name(event.ranking[0][0]) }) : event.reason;
        const scores = event.scores.map((score, seat) => `${name(seat)} ${score}`).join(", ");
        return fmt(_("Game over: %(reason)s. Scores: %(scores)s."), { reason, scores });
      }
      default: return null;
    }
  }

  // The result screen: why it ended, in the board's own words (the frame shows result.scores).
  function reason(result, ctx) {
    if (!END_REASONS[result.reason]) return null;
    const text = fmt(END_REASONS[result.reason](), { name: ctx.name(result.ranking[0][0]) });
    return fmt(_("The game ended: %(reason)s."), { reason: text });
  }

  Tapete.registerGame("spicy", { render, describe, animate, reason });
})();
