/* The player's browser as a witness (templates/browser_witness.html). At each visit it
 *  1. checks the match's public bundle with static/audit.js against the host's key, holding it
 *     to the newest checkpoint this browser checked before (a fork or a rollback is an alarm
 *     with both signed notes, and nothing is cosigned);
 *  2. keeps each of the player's receipts (entry and hash) and checks that the log still holds
 *     each entry under a signed checkpoint (an alarm with the receipt and the note if not);
 *  3. cosigns the newest checkpoint (c2sp.org/tlog-cosignature, cosignature/v1) with an Ed25519
 *     key made here by WebCrypto, not extractable, kept in IndexedDB, and registered once for
 *     this player in the season's log; then checks the season's log the same way and cosigns
 *     its newest checkpoint too.
 * The section's data-state says where it ended: cosigned, checked, alarm or failed. */
(function () {
  "use strict";

  const A = window.ArbiterAudit;
  const utf8 = new TextEncoder();
  const SEEN = "arbiter-seen:";
  const RECEIPTS = "arbiter-receipts:";
  const COSIGNED = "arbiter-cosigned:";

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function load(key, fallback) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null") ?? fallback;
    } catch (e) {
      return fallback;
    }
  }

  function store(key, value) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
    } catch (e) {
      /* a browser that keeps nothing still checks this visit */
    }
  }

  // -- the key, in IndexedDB --------------------------------------------------------------

  function database() {
    return new Promise((resolve, reject) => {
      const opening = indexedDB.open("arbiter-witness", 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore("keys", { keyPath: "id" });
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }

  async function stored(id, record) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const store = db.transaction("keys", record ? "readwrite" : "readonly").objectStore("keys");
      const asked = record ? store.put(record) : store.get(id);
      asked.onsuccess = () => resolve(record || asked.result || null);
      asked.onerror = () => reject(asked.error);
    });
  }

  async function keyId(name, typed) {
    return (await A.sha256(new Uint8Array([...utf8.encode(name + "\n"), ...typed]))).subarray(0, 4);
  }

  /* A new witness key: the private half never leaves this browser (not extractable). */
  async function newKey(id, name) {
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    const typed = new Uint8Array([0x04, ...raw]);
    const vkey = name + "+" + A.hex(await keyId(name, typed)) + "+" + A.b64(typed);
    return stored(id, { id, privateKey: pair.privateKey, vkey });
  }

  async function post(url, body) {
    const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), credentials: "same-origin" });
    const answer = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, answer };
  }

  // -- cosigning ---------------------------------------------------------------------------

  async function cosignature(key, name, note) {
    const text = A.parseNote(note).text;
    const time = Math.floor(Date.now() / 1000);
    const message = utf8.encode("cosignature/v1\ntime " + time + "\n" + text);
    const signature = new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, key.privateKey, message));
    const stamp = new Uint8Array(8);
    new DataView(stamp.buffer).setBigUint64(0, BigInt(time));
    const typed = A.unb64(key.vkey.split("+").slice(2).join("+"));  // base64 may hold a +
    const raw = new Uint8Array([...(await keyId(name, typed)), ...stamp, ...signature]);
    return "\u2014 " + name + " " + A.b64(raw) + "\n";
  }

  // -- the visit ---------------------------------------------------------------------------

  function alarm(out, said, notes) {
    out.append(element("p", said, "check-failed"));
    for (const [what, note] of notes) {
      out.append(element("p", what));
      out.append(element("pre", note));
    }
  }

  /* c2sp.org/tlog-proof of the entry the log holds at `seq`, under the signed `note`:
   * `arbiter receipt verify RECEIPT --proof FILE --key VKEY` then shows the receipt's entry is
   * not the one the host signed there. */
  async function proofText(result, seq, note) {
    const size = A.parseCheckpoint(A.parseNote(note).text).size;
    const path = await A.inclusionProof(seq - 1, result.leaves.slice(0, size));
    return "c2sp.org/tlog-proof@v1\nindex " + (seq - 1) + "\n" +
      path.map((h) => A.b64(h) + "\n").join("") + "\n" + note;
  }

  async function checkReceipts(section, result, out) {
    const d = section.dataset;
    const memory = RECEIPTS + d.match + "\n" + d.player;
    const kept = load(memory, {});
    for (const r of JSON.parse(d.receipts || "[]")) {
      if (!kept[r.seq]) kept[r.seq] = { seq: r.seq, hash: r.hash, round: r.round, command: r.command };
    }
    store(memory, kept);
    const newest = result.checkpoints[result.checkpoints.length - 1];
    const signed = newest ? newest.size : 0;
    let fine = 0, waiting = 0;
    const lost = [];
    for (const r of Object.values(kept)) {
      if (r.seq > signed) waiting += 1;
      else if (result.hashes[r.seq - 1] === r.hash) fine += 1;
      else lost.push(r);
    }
    if (lost.length) {
      for (const r of lost) {
        const held = result.hashes[r.seq - 1];
        alarm(out, "Your submission #" + r.seq + " (" + (r.command || "a command") + ", round " +
          r.round + ") is not in the log the host signed: your receipt says its hash is " + r.hash +
          ", the log now holds " + (held || "no entry") + " there. Take your receipt (the " +
          "download link above) and the proof below to the host and the other players: " +
          "arbiter receipt verify receipt-" + r.seq + ".json --proof proof.txt --key " + d.key +
          " shows the host signed another entry in its place.",
          held ? [["The proof (proof.txt): the entry the log holds there, under the host's newest " +
            "signed checkpoint:", await proofText(result, r.seq, newest.note)]]
            : [["The newest checkpoint the host signed:", newest.note]]);
      }
      return false;
    }
    const total = Object.keys(kept).length;
    if (total) {
      out.append(element("p", "Your " + total + " submission" + (total === 1 ? " is" : "s are") +
        " checked: " + fine + " in the signed log as your receipts say" +
        (waiting ? ", " + waiting + " waiting for the round to close" : "") + "."));
    }
    return true;
  }

  /* One log checked against what this browser saw of it before: {result, bytes, before}. */
  async function checkLog(url, hostKey) {
    const response = await fetch(url, { cache: "no-store" });
    const bytes = new Uint8Array(await response.arrayBuffer());
    let origin = null;
    try {
      origin = JSON.parse(new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(10)))).header.origin;
    } catch (e) { /* the verifier says what is wrong */ }
    const seen = origin ? load(SEEN + origin, null) : null;
    const before = seen && { ...seen, root: A.unb64(seen.root) };
    const result = await A.verifyBundle(bytes, { key: hostKey, seen: before });
    if (result.ok) {
      const newest = result.checkpoints[result.checkpoints.length - 1];
      if (newest && (!seen || seen.size < newest.size)) {
        store(SEEN + result.origin, { origin: result.origin, key: result.key.text, size: newest.size,
          root: A.b64(newest.root), note: newest.note });
      }
    }
    return { result, bytes, before };
  }

  function refused(out, what, checked) {
    const { result, bytes, before } = checked;
    const forked = before && ["inconsistent_checkpoints", "rolled_back", "key_changed"].includes(result.code);
    const notes = [];
    if (forked) {
      notes.push(["The checkpoint this browser checked before:", before.note]);
      const now = new TextDecoder().decode(bytes).split("\n").flatMap((line) => {
        try { const v = JSON.parse(line); return v.checkpoint ? [v.checkpoint.note] : []; } catch (e) { return []; }
      });
      notes.push(["The newest checkpoint the host shows now:", now[now.length - 1] || "(none)"]);
    }
    alarm(out, (forked ? "The host is showing your browser another history of " + what + " than " +
      "the one it checked before: nothing was cosigned. Take both signed notes to the host and the " +
      "other players. " : "The log of " + what + " does not check out, so nothing was cosigned. ") +
      "(" + result.code + (result.seq !== null ? " at entry " + result.seq : "") + ": " +
      result.detail + ")", notes);
  }

  async function visit(section) {
    const d = section.dataset;
    const out = section.querySelector(".witness-result");
    const done = (state) => { section.dataset.state = state; };
    const match = await checkLog(d.bundle, d.key);
    const result = match.result;
    out.replaceChildren();
    if (result.code === "no_webcrypto") {  // nothing found wrong, and nothing checked either
      out.append(element("p", "Your browser cannot check the log here: " + result.detail + "."));
      return done("failed");
    }
    if (!result.ok) {
      refused(out, "this match", match);
      section.dataset.code = result.code;
      return done("alarm");
    }
    const newest = result.checkpoints[result.checkpoints.length - 1];
    out.append(element("p", "Your browser checked the log: " + result.entries + " entries, " +
      result.checkpoints.length + " signed checkpoints, each extending the one before."));
    if (!(await checkReceipts(section, result, out))) return done("alarm");
    if (!newest) return done("checked");
    if (!(await A.cryptography()).webcrypto) {  // checked with the vendored library: no key here
      out.append(element("p", "This browser cannot cosign for you here: a witness key is made " +
        "and kept by WebCrypto, which " + (window.crypto && crypto.subtle ? "has no Ed25519 in " +
        "this browser" : "a page served over plain http from another machine does not have") +
        ". The checks above were made with the page's own copy of a library."));
      return done("checked");
    }
    let key;
    try {
      key = await witnessKey(d, out);
      if (!key) return done("checked");
      await cosign(d, out, key, "match", result.origin, newest);
    } catch (error) {  // no Ed25519 signing or no IndexedDB here: the checks above still stand
      out.append(element("p", "This browser cannot cosign for you: " + error.message + "."));
      return done("checked");
    }
    // The season's log too: its checkpoints pin the standings and every match's latest.
    const season = await checkLog(d.seasonBundle, d.key);
    if (!season.result.ok) {
      refused(out, "the season", season);
      section.dataset.code = season.result.code;
      return done("alarm");
    }
    const last = season.result.checkpoints[season.result.checkpoints.length - 1];
    if (last) await cosign(d, out, key, "season", season.result.origin, last);
    return done("cosigned");
  }

  /* This player's witness key in this browser, registered in the season's log the first
   * time; null (said on the page) when another browser of theirs is their witness. */
  async function witnessKey(d, out) {
    const id = d.season + "\n" + d.player;
    let key = await stored(id);
    if (!d.registered) {
      key = key || await newKey(id, d.name);
      const registered = await post(d.register, { csrf: d.csrf, key: key.vkey });
      if (!registered.ok) {
        out.append(element("p", "This browser could not become your witness: " +
          (registered.answer.message || registered.status) + "."));
        return null;
      }
      d.registered = key.vkey;
    }
    if (!key || key.vkey !== d.registered) {
      out.append(element("p", "Another browser of yours is your witness for this season: it " +
        "cosigns when you open your page there."));
      return null;
    }
    return key;
  }

  async function cosign(d, out, key, log, origin, newest) {
    const what = log === "match" ? "the newest round" : "the season's newest checkpoint";
    const cosignedKey = COSIGNED + origin + "\n" + d.player;
    if (load(cosignedKey, 0) >= newest.size) {
      out.append(element("p", "Your browser cosigned " + what + " already."));
      return;
    }
    const line = await cosignature(key, d.name, newest.note);
    const sent = await post(d.cosign, { csrf: d.csrf, size: newest.size, line, log });
    if (!sent.ok) {
      throw new Error("your cosignature of " + what + " was not taken: " +
        (sent.answer.message || sent.status));
    }
    store(cosignedKey, newest.size);
    out.append(element("p", "Your browser cosigned " + what + " (" + newest.size +
      " entries) as your witness."));
  }

  for (const section of document.querySelectorAll(".browser-witness")) {
    visit(section).catch((error) => {
      section.querySelector(".witness-result").replaceChildren(
        element("p", "Your browser could not check the log: " + error.message + "."));
      section.dataset.state = "failed";
    });
  }
})();
