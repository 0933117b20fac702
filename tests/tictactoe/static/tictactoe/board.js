// The test-only game's board for the shared table frame (static/js/table.js): nine buttons, one per square.
(function () {
  "use strict";
  const { gettext: _, interpolate: fmt } = Tapete.kit;  // static/js/table.js, its header

  window.Tapete.registerGame("tictactoe", {
    render(board, data, ctx) {
      const legal = new Set((data.legal || []).map((action) => action.cell));
      const grid = document.createElement("div");
      grid.className = "tictactoe-grid";
      data.view.board.forEach((mark, cell) => {
        const square = document.createElement("button");
        square.type = "button";
        square.dataset.cell = String(cell);
        square.textContent = mark === null ? "" : (mark === 0 ? "X" : "O");
        square.setAttribute("aria-label", fmt(_("Square %s"), [cell + 1]));
        square.disabled = !legal.has(cell);
        square.addEventListener("click", () => ctx.act({type: "mark", cell}));
        grid.append(square);
      });
      board.replaceChildren(grid);
    },
    describe(event, ctx) {
      return event.type === "marked" ? fmt(_("%s marks square %s"), [ctx.name(event.seat), event.cell + 1]) : null;
    },
  });
})();
