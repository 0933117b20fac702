// What a moderator's decisions look like on an open table page (docs/protocol.md, "Moderation frames"), kept apart
// from table.js, which only forwards its frames ("tapete:frame") and a 4403 close ("tapete:closed") to the table's
// root element:
//   chat_hidden  the line leaves the chat at once;
//   aborted      "aborted by a moderator" (the view frame before it has stopped the clocks);
//   sanction     a warning (until acknowledged), a mute (the chat box says until when), or a suspension or ban
//                (the controls go, the page says why; the socket then closes with 4403 and is not reopened);
//   sanction_lifted  a moderator lifted the mute: the chat box opens again.
(function () {
  "use strict";
  const _ = window.gettext || ((text) => text);

  function box(root) {
    let notices = root.querySelector("[data-moderation-notices]");
    if (!notices) {
      notices = Object.assign(document.createElement("div"), { className: "moderation-notices" });
      notices.dataset.moderationNotices = "";
      root.querySelector("[data-error]")?.after(notices);
    }
    return notices;
  }

  function notice(root, attribute, text, className) {
    const notices = box(root);
    let node = notices.querySelector(`[${attribute}]`);
    if (!node) {
      node = document.createElement("p");
      node.setAttribute(attribute, "");
      node.setAttribute("role", "alert");
      notices.append(node);
    }
    node.className = className;
    node.textContent = text;
    return node;
  }

  function freeze(root) {
    root.querySelectorAll("[data-board] button, [data-seat-controls] button, [data-chat-form] input, [data-chat-form] button")
      .forEach((control) => { control.disabled = true; });
    root.querySelector("[data-seat-controls]")?.replaceChildren();
    const error = root.querySelector("[data-error]");
    if (error) error.textContent = "";
  }

  function warning(root, data) {
    if (root.querySelector(`[data-warning-notice="${Number(data.id)}"]`)) return;
    const node = Object.assign(document.createElement("p"), { className: "sanction-notice warning", textContent: data.message });
    node.dataset.warningNotice = data.id;
    node.setAttribute("role", "alert");
    box(root).append(node);
    const button = Object.assign(document.createElement("button"), { type: "button", textContent: _("I have read this") });
    button.addEventListener("click", () => {
      const token = document.querySelector("[name=csrfmiddlewaretoken]");
      fetch(data.acknowledge_url, { method: "POST", credentials: "same-origin",
        headers: { "X-CSRFToken": token ? token.value : "", "X-Requested-With": "fetch" } })
        .then((response) => { if (response.ok) node.remove(); });
    });
    node.append(" ", button);
  }

  function onSanction(root, data) {
    if (data.kind === "warning") {
      warning(root, data);
    } else if (data.kind === "mute") {
      notice(root, "data-mute-notice", data.message, "mute-notice").dataset.until = data.until || "";
      muteChat(root);
    } else {
      notice(root, "data-lockout-notice", data.message, "sanction-notice");
      freeze(root);
    }
  }

  // The chat box stays closed while the mute lasts, and opens again by itself when it ends.
  function muteChat(root) {
    const note = root.querySelector("[data-mute-notice]");
    if (!note) return;
    const controls = root.querySelectorAll("[data-chat-form] input, [data-chat-form] button");
    controls.forEach((control) => { control.disabled = true; });
    const left = note.dataset.until ? Date.parse(note.dataset.until) - Date.now() : NaN;
    if (left > 0 && left < 2 ** 31 - 1) {
      setTimeout(() => { note.remove(); controls.forEach((control) => { control.disabled = false; }); }, left);
    }
  }

  // A moderator lifted the mute: the note goes and the chat box opens (unless the table is closed to the player).
  function unmuteChat(root) {
    root.querySelector("[data-mute-notice]")?.remove();
    if (root.querySelector("[data-lockout-notice], [data-aborted-notice]")) return;
    root.querySelectorAll("[data-chat-form] input, [data-chat-form] button").forEach((control) => { control.disabled = false; });
  }

  function onFrame(root, frame) {
    if (frame.t === "view" && frame.d.status === "aborted") {
      queueMicrotask(() => freeze(root));  // after table.js has drawn the last view
    }
    if (frame.t === "chat_hidden") {
      root.querySelector(`[data-chat-id="${Number(frame.d.id)}"]`)?.remove();
    } else if (frame.t === "aborted") {
      notice(root, "data-aborted-notice", _("This match was aborted by a moderator."), "sanction-notice");
      freeze(root);
    } else if (frame.t === "sanction") {
      onSanction(root, frame.d);
    } else if (frame.t === "sanction_lifted" && frame.d.kind === "mute") {
      unmuteChat(root);
    }
  }

  function onClosed(root, event) {
    if (!root.querySelector("[data-lockout-notice]")) {
      notice(root, "data-lockout-notice", event.detail.reason || _("A moderator closed your access to the tables."),
        "sanction-notice");
    }
    freeze(root);
  }

  document.querySelectorAll("[data-table]").forEach((root) => {
    muteChat(root);
    root.addEventListener("tapete:frame", (event) => onFrame(root, event.detail));
    root.addEventListener("tapete:closed", (event) => onClosed(root, event));
  });
})();
