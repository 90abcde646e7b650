/* "Check this log in your browser" (templates/check_in_browser.html): fetches the public
 * bundle, verifies it with static/audit.js against the key the page shows, and remembers, per
 * log, the newest checkpoint it checked (localStorage), so a later visit that is shown another
 * history or an older one says so, with both signed notes to share. */
(function () {
  "use strict";

  const MEMORY = "arbiter-seen:";
  const SAID = {
    bad_hash: "An entry was changed after it was written: its hash no longer matches it.",
    broken_chain: "An entry does not link to the one before it: the log was cut or spliced.",
    bad_seq: "An entry was dropped, inserted or moved.",
    bad_signature: "A checkpoint's signature is not the host key's signature of it.",
    wrong_host_key: "A checkpoint was signed by another key than the host's.",
    unsigned_checkpoint: "A checkpoint carries no signature by the host's key.",
    root_mismatch: "A signed checkpoint does not cover the entries the log holds.",
    inconsistent_checkpoints: "The host signed two different histories of this log.",
    rolled_back: "This log was rolled back to an older checkpoint than one this browser checked before.",
    key_changed: "This log is now signed by another key than the one this browser saw before.",
    missing_checkpoint: "A signed checkpoint was left out of the log.",
    truncated: "The log ends before its last entry.",
    no_webcrypto: "This browser cannot check the log here: nothing was found wrong with it, " +
      "but nothing was checked either.",
  };

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function recall(origin) {
    try {
      const saved = JSON.parse(localStorage.getItem(MEMORY + origin) || "null");
      return saved && { ...saved, root: ArbiterAudit.unb64(saved.root) };
    } catch (e) {
      return null;
    }
  }

  function remember(result) {
    const last = result.checkpoints[result.checkpoints.length - 1];
    const before = recall(result.origin);
    if (!last || (before && before.size >= last.size)) return;
    try {
      localStorage.setItem(MEMORY + result.origin, JSON.stringify({
        origin: result.origin, key: result.key.text, size: last.size,
        root: ArbiterAudit.b64(last.root), note: last.note }));
    } catch (e) {
      /* a browser that keeps nothing (private mode, full storage) still checks this visit */
    }
  }

  function claimed(bytes) {
    try {
      const first = new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(10)));
      return JSON.parse(first).header || {};
    } catch (e) {
      return {};
    }
  }

  function notesOf(bytes) {
    return new TextDecoder().decode(bytes).split("\n").flatMap((line) => {
      try {
        const value = JSON.parse(line);
        return value.checkpoint ? [value.checkpoint.note] : [];
      } catch (e) {
        return [];
      }
    });
  }

  function showPassed(out, result, cryptography) {
    out.append(element("p", "This log checks out in your browser.", "check-ok"));
    const list = element("ul");
    list.append(element("li", result.entries + " entries: every hash and every link to the " +
      "entry before holds."));
    const n = result.checkpoints.length;
    if (n) {
      const last = result.checkpoints[n - 1];
      list.append(element("li", n + " signed checkpoint" + (n === 1 ? "" : "s") + ", each " +
        "signed by the key above and extending the one before; the newest covers " +
        last.size + " entries" + (last.round === undefined ? "" : " (" + (last.round === 0 ?
        "the opening" : "round " + last.round) + ")") + "."));
    } else {
      list.append(element("li", "No signed checkpoint yet: nothing in this log is signed."));
    }
    if (result.kind === "season") {
      list.append(element("li", result.cited + " match entries the season rests on, each " +
        "in its match's signed log where a checkpoint covers it."));
    }
    out.append(list);
    out.append(element("p", "The hashes and signatures were checked with " + cryptography.said +
      ".", "quiet crypto-used"));
    out.append(element("p", "Not checked here: the game's rules and the sealed moves " +
      "(arbiter verify does both).", "quiet"));
  }

  function showFailed(out, result, before, bytes) {
    out.append(element("p", SAID[result.code] || "This log does not check out.", "check-failed"));
    const where = [result.seq !== null ? "entry " + result.seq : "",
      result.line !== null ? "line " + result.line : ""].filter(Boolean).join(", ");
    const detail = element("p");
    detail.append(element("code", result.code), (where ? " at " + where : "") + ": " + result.detail);
    out.append(detail);
    if (before && ["inconsistent_checkpoints", "rolled_back", "key_changed"].includes(result.code)) {
      out.append(element("p", "Take both signed notes below to the host and to the other " +
        "players: the host signed both, and they cannot both be true."));
      out.append(element("p", "The checkpoint this browser checked before:"));
      out.append(element("pre", before.note));
      const now = notesOf(bytes);
      out.append(element("p", "The newest checkpoint the host shows now:"));
      out.append(element("pre", now.length ? now[now.length - 1] : "(none)"));
    }
  }

  async function check(section, button) {
    const out = section.querySelector(".check-result");
    out.replaceChildren(element("p", "Checking…"));
    button.disabled = true;
    try {
      const response = await fetch(section.dataset.bundle, { cache: "no-store" });
      if (!response.ok) throw new Error("the server answered " + response.status);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const origin = claimed(bytes).origin;
      const before = typeof origin === "string" ? recall(origin) : null;
      const result = await ArbiterAudit.verifyBundle(bytes, { key: section.dataset.key, seen: before });
      out.replaceChildren();
      section.dataset.code = result.ok ? "verified" : result.code;
      if (result.ok) {
        remember(result);
        showPassed(out, result, await ArbiterAudit.cryptography());
      } else {
        showFailed(out, result, before, bytes);
      }
    } catch (error) {
      section.dataset.code = "unreachable";
      out.replaceChildren(element("p", "The log could not be fetched: " + error.message +
        ". Try again, or download it and run arbiter verify.", "check-failed"));
    } finally {
      button.disabled = false;
    }
  }

  for (const section of document.querySelectorAll(".browser-check")) {
    const button = section.querySelector(".check-button");
    button.addEventListener("click", () => check(section, button));
  }
})();
