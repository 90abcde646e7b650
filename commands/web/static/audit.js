/* Arbiter's public-bundle verifier, in the browser: what `arbiter verify` checks of a public
 * bundle (a match's or a season's) except re-running the rules, with the same failure codes.
 * docs/audit.md, "Checking in the browser", says what it checks and what it leaves to the CLI.
 *
 * It follows audit/verify.py and audit/season_verify.py check for check and in the same
 * order, so a bundle fails here with the code and seq the CLI names (a differential test,
 * tests/service/test_audit_browser.py, holds the two to that over the tamper corpus). The
 * cryptography is the browser's own (WebCrypto SHA-256 and Ed25519) where it has it; else
 * static/fallback.js, which imports @noble/hashes and @noble/ed25519 from static/vendor/
 * (copied from their registry packages, versions and hashes in static/vendor/VENDORED.json).
 * Nothing is loaded from anywhere but this server.
 *
 * window.ArbiterAudit.verifyBundle(bytes, {key, seen}) resolves to
 *   {ok: true, kind: "match"|"season", origin, key, entries, checkpoints: [{size, root, note}],
 *    ...} or {ok: false, code, seq, line, detail}.
 */
(function (global) {
  "use strict";

  const utf8 = new TextEncoder();
  const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const EVENT_PREFIX = utf8.encode("arbiter/event/v1\n");
  const SEASON_PREFIX = utf8.encode("arbiter/season/v1\n");
  const SEAL_PREFIX = utf8.encode("arbiter/seal/v1\n");
  const GENESIS_PREV = "0".repeat(64);
  const VERSION = 1;
  const SEALS = 2;
  const ED25519 = 0x01;
  const COSIGNATURE_V1 = 0x04;
  const MAX_SIGNATURES = 100;
  const MAX_TREE_SIZE = 18446744073709551615n;
  const MATCH_FORMAT = "arbiter-bundle/1";
  const SEASON_FORMAT = "arbiter-season-bundle/1";
  const HEX64 = /^[0-9a-f]{64}$/;
  const ORIGIN_PREFIX = /^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~-]+)*$/;
  const KEY_HASH = /^[0-9a-fA-F]{8}$/;
  const DECIMAL = /^(0|[1-9][0-9]*)$/;
  const CONTROL = /[\x00-\x09\x0b-\x1f]/;
  const SPACE = /[\s\x1c-\x1f\x85]/;  // what Python's str.isspace() also counts
  const ROUND_LINE = /^round (0|[1-9][0-9]{0,15})$/;
  const STATE_LINE = /^state ([0-9a-f]{64})$/;
  const STANDINGS_LINE = /^standings ([0-9a-f]{64})$/;
  const MATCH_LINE = /^match (0|[1-9][0-9]{0,15}) ([A-Za-z0-9+/]{43}=) (.+)$/s;
  const SIG_PREFIX = "\u2014 ";
  const NOTED = new Set(["SeedContributed", "SeedRevealed", "MatchEnded", "MatchAbandoned",
    "SealOpened"]);
  const CITING = new Set(["MatchAdded", "Posted", "MatchFinished"]);
  const NOTE_ERRORS = { unverified: "unsigned_checkpoint", other_key: "wrong_host_key",
    bad_signature: "bad_signature" };
  // The codes only a re-run of the rules gives: the browser leaves them to `arbiter verify`.
  const RULES_CODES = ["rerun_refused", "rerun_mismatch", "state_root_mismatch",
    "standings_mismatch", "citation_mismatch"];

  class AuditError extends Error {
    constructor(code, detail, seq, line) {
      super(code + ": " + detail);
      this.code = code;
      this.detail = detail;
      this.seq = seq === undefined ? null : seq;
      this.line = line === undefined ? null : line;
    }
  }

  class NoteError extends Error {
    constructor(code, detail) {
      super(code + ": " + detail);
      this.code = code;
      this.detail = detail;
    }
  }

  // -- bytes, hashes, base64 ---------------------------------------------------------------

  function concat(...parts) {
    let length = 0;
    for (const p of parts) length += p.length;
    const out = new Uint8Array(length);
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  }

  function hex(bytes) {
    let text = "";
    for (const b of bytes) text += b.toString(16).padStart(2, "0");
    return text;
  }

  function fromHex(text) {
    const out = new Uint8Array(text.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(text.substr(2 * i, 2), 16);
    return out;
  }

  function equalBytes(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  // -- the cryptography: WebCrypto where the browser has it, else the vendored library -------

  class NoCryptography extends Error {}

  const HERE = (global.document && document.currentScript && document.currentScript.src) ||
    "/static/audit.js";
  // RFC 8032's first test key: a probe of whether WebCrypto here knows Ed25519.
  const PROBE_KEY = fromHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  let vendored = null;

  function subtle() {
    return (global.crypto && global.crypto.subtle) || null;
  }

  /* static/fallback.js, imported once, the first time WebCrypto lacks something. */
  function fallback() {
    if (!vendored) {
      vendored = import(new URL("fallback.js", HERE).href).catch((error) => {
        vendored = null;
        throw new NoCryptography("this browser's WebCrypto lacks SHA-256 or Ed25519 here, " +
          "and the page's own copy of a library for them could not be loaded (" +
          error.message + "): use arbiter verify");
      });
    }
    return vendored;
  }

  /* Which does what here: started as the script loads, so the library is fetched (when it is
   * needed) while the page is still being read from the server. */
  const webcrypto = (async () => {
    const s = subtle();
    let ed25519 = false;
    if (s) {
      try {
        await s.importKey("raw", PROBE_KEY, { name: "Ed25519" }, false, ["verify"]);
        ed25519 = true;
      } catch (e) {
        ed25519 = false;
      }
    }
    if (!s || !ed25519) fallback().catch(() => {});
    return { sha256: !!s, ed25519 };
  })();

  /* What checks the hashes and the signatures in this browser, in words. */
  async function cryptography() {
    const used = await webcrypto;
    if (used.sha256 && used.ed25519) return { webcrypto: true, said: "this browser's WebCrypto" };
    const lacks = used.sha256 ? "Ed25519" : "SHA-256 and Ed25519";
    return { webcrypto: false, said: "the page's own copy of @noble/hashes 2.4.0 and " +
      "@noble/ed25519 3.2.0 (this browser's WebCrypto has no " + lacks + " here)" };
  }

  async function sha256(bytes) {
    const s = subtle();
    if (s) return new Uint8Array(await s.digest("SHA-256", bytes));
    return (await fallback()).sha256(bytes);
  }

  function b64(bytes) {
    let text = "";
    for (const b of bytes) text += String.fromCharCode(b);
    return btoa(text);
  }

  /* Python's base64.b64decode(text, validate=True): the alphabet, padding where it belongs,
   * a length in fours; null when it is not that. */
  function unb64(text) {
    if (typeof text !== "string" || text.length % 4 !== 0 ||
        !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
    try {
      return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    } catch (e) {
      return null;
    }
  }

  // -- JSON: RFC 8785, integers only, and Python's idea of equality ------------------------

  function isDict(v) {
    return v !== null && typeof v === "object" && !Array.isArray(v);
  }

  function isInt(v) {
    return typeof v === "number";  // every number read has been checked to be a safe integer
  }

  function isStr(v) {
    return typeof v === "string";
  }

  function keysAre(v, names) {
    if (!isDict(v)) return false;
    const keys = Object.keys(v);
    return keys.length === names.length && names.every((k) => Object.hasOwn(v, k));
  }

  function get(d, key) {
    return Object.hasOwn(d, key) ? d[key] : null;
  }

  function canonical(v) {
    if (v === null) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (typeof v === "number") return String(v);
    if (typeof v === "string") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k]))
      .join(",") + "}";
  }

  function safeIntegers(v) {
    if (typeof v === "number") return Number.isSafeInteger(v) && !Object.is(v, -0);
    if (Array.isArray(v)) return v.every(safeIntegers);
    if (isDict(v)) return Object.values(v).every(safeIntegers);
    return true;
  }

  function withoutHash(e) {
    const copy = {};
    for (const k of Object.keys(e)) if (k !== "hash") copy[k] = e[k];
    return copy;
  }

  function entryBytes(e) {
    return utf8.encode(canonical(withoutHash(e)));
  }

  /* Python's == between values read from JSON: True is 1 and False is 0, dicts ignore order. */
  function pyEq(a, b) {
    const numeric = (x) => typeof x === "number" || typeof x === "boolean";
    if (numeric(a) && numeric(b)) return Number(a) === Number(b);
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a === b;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => pyEq(x, b[i]));
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && pyEq(a[k], b[k]));
  }

  /* One line (bytes, its newline included) read as the CLI's `_parse` reads it. */
  function parseLine(raw, after) {
    const where = " (the line after entry " + after + ")";
    if (raw.length === 0 || raw[raw.length - 1] !== 0x0a) {
      throw new AuditError("truncated", "the last line has no newline: the bundle was cut" +
        where);
    }
    let text;
    try {
      text = strictUtf8.decode(raw.subarray(0, raw.length - 1));
    } catch (e) {
      throw new AuditError("malformed_line", "not UTF-8" + where);
    }
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      if (/^\s*-?(NaN|Infinity)\s*$|[:,[]\s*-?(NaN|Infinity)\s*[,\]}]/.test(text)) {
        throw new AuditError("not_canonical", "a NaN or Infinity" + where);
      }
      throw new AuditError("malformed_line", "not JSON" + where);
    }
    if (!safeIntegers(value)) {
      throw new AuditError("not_canonical", "a number that is not an integer within " +
        "\u00b1(2^53\u22121): the ledger is integers-only" + where);
    }
    if (canonical(value) !== text) {
      throw new AuditError("not_canonical", "the line is not in canonical form (RFC 8785)" +
        where);
    }
    return value;
  }

  function splitLines(bytes) {
    const lines = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 0x0a) { lines.push(bytes.subarray(start, i + 1)); start = i + 1; }
    }
    if (start < bytes.length) lines.push(bytes.subarray(start));
    return lines;
  }

  // -- RFC 9162 Merkle trees ----------------------------------------------------------------

  const ZERO = new Uint8Array([0]);
  const ONE = new Uint8Array([1]);

  function leafHash(data) {
    return sha256(concat(ZERO, data));
  }

  function nodeHash(left, right) {
    return sha256(concat(ONE, left, right));
  }

  /* The root of a log fed one leaf at a time: one subtree root per set bit of the size. */
  class TreeBuilder {
    constructor() { this.size = 0; this.stack = []; this.leaves = null; }

    async append(data) {
      let h = await leafHash(data);
      if (this.leaves) this.leaves.push(h);
      let n = this.size;
      while (n & 1) { h = await nodeHash(this.stack.pop(), h); n = Math.floor(n / 2); }
      this.stack.push(h);
      this.size += 1;
    }

    async root() {
      if (!this.stack.length) return sha256(new Uint8Array(0));
      let h = this.stack[this.stack.length - 1];
      for (let i = this.stack.length - 2; i >= 0; i--) h = await nodeHash(this.stack[i], h);
      return h;
    }
  }

  /* RFC 9162 PATH(index, D[n]) over leaf hashes: the siblings from the leaf up to the root. */
  async function inclusionProof(index, leafHashes) {
    const mth = async (lo, hi) => {
      if (hi - lo === 1) return leafHashes[lo];
      const k = largestPowerOfTwoBelow(hi - lo);
      return nodeHash(await mth(lo, lo + k), await mth(lo + k, hi));
    };
    const path = [];
    let lo = 0, hi = leafHashes.length;
    while (hi - lo > 1) {
      const mid = lo + largestPowerOfTwoBelow(hi - lo);
      if (index < mid) { path.push(await mth(mid, hi)); hi = mid; } else { path.push(await mth(lo, mid)); lo = mid; }
    }
    return path.reverse();
  }

  function largestPowerOfTwoBelow(n) {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  }

  function bitLength(n) {
    return n === 0 ? 0 : Math.floor(Math.log2(n)) + 1;
  }

  function isPowerOfTwo(n) {
    while (n % 2 === 0) n /= 2;
    return n === 1;
  }

  function isProof(proof, most) {
    return proof.length <= most && proof.every((p) => p instanceof Uint8Array && p.length === 32);
  }

  async function verifyInclusion(index, size, leaf, proof, root) {
    if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 &&
          index < size && isProof(proof, bitLength(size)))) return false;
    let fn = index, sn = size - 1, r = leaf;
    for (const p of proof) {
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        r = await nodeHash(p, r);
        while (fn % 2 === 0 && fn) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        r = await nodeHash(r, p);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && equalBytes(r, root);
  }

  async function verifyConsistency(size1, size2, root1, root2, proof) {
    if (!(Number.isSafeInteger(size1) && Number.isSafeInteger(size2) && size1 > 0 &&
          size1 <= size2 && isProof(proof, 2 * bitLength(size2)))) return false;
    if (size1 === size2) return proof.length === 0 && equalBytes(root1, root2);
    if (!proof.length) return false;
    if (isPowerOfTwo(size1)) proof = [root1, ...proof];  // the old tree is a perfect subtree
    let fn = size1 - 1, sn = size2 - 1;
    while (fn % 2 === 1) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    let fr = proof[0], sr = proof[0];
    for (const c of proof.slice(1)) {
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        fr = await nodeHash(c, fr); sr = await nodeHash(c, sr);
        while (fn % 2 === 0 && fn) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        sr = await nodeHash(sr, c);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && equalBytes(fr, root1) && equalBytes(sr, root2);
  }

  // -- C2SP signed notes, checkpoints and keys ---------------------------------------------

  async function keyId(name, typedKey) {
    return (await sha256(concat(utf8.encode(name + "\n"), typedKey))).subarray(0, 4);
  }

  function checkName(name, code) {
    if (!name || SPACE.test(name) || name.includes("+")) {
      throw new NoteError(code, "key name " + JSON.stringify(name) + " is empty or holds a " +
        "space or '+'");
    }
  }

  /* A verifier key, name+hex(key ID)+base64(type || key): {name, type, publicKey, id, text}. */
  async function parseVerifierKey(vkey) {
    const first = vkey.indexOf("+");
    const second = first < 0 ? -1 : vkey.indexOf("+", first + 1);
    const keyHash = second < 0 ? "" : vkey.slice(first + 1, second);
    if (first < 0 || second < 0 || !KEY_HASH.test(keyHash)) {
      throw new NoteError("malformed_key", "expected name+keyhash+base64key");
    }
    const name = vkey.slice(0, first);
    const typed = unb64(vkey.slice(second + 1));
    if (typed === null) throw new NoteError("malformed_key", "not base64");
    if (!typed.length) throw new NoteError("malformed_key", "empty key");
    checkName(name, "malformed_key");
    if (typed[0] !== ED25519 && typed[0] !== COSIGNATURE_V1) {
      throw new NoteError("unsupported_key_type", "signature type " + typed[0]);
    }
    if (typed.length !== 33) throw new NoteError("malformed_key", "an Ed25519 public key is 32 bytes");
    const id = await keyId(name, typed);
    if (hex(id) !== keyHash.toLowerCase()) {
      throw new NoteError("key_hash_mismatch", vkey + " names the wrong key hash");
    }
    return { name, type: typed[0], publicKey: typed.subarray(1), id,
      text: name + "+" + hex(id) + "+" + b64(typed) };
  }

  function checkText(text, code) {
    if (CONTROL.test(text)) throw new NoteError(code, "holds a control character other than newline");
    if (!text.endsWith("\n")) throw new NoteError(code, "does not end in a newline");
  }

  function parseNote(note) {
    checkText(note, "malformed_note");
    const split = note.lastIndexOf("\n\n");
    if (split < 0) throw new NoteError("malformed_note", "no blank line before the signatures");
    const lines = note.slice(split + 2, -1).split("\n");
    if (lines.length > MAX_SIGNATURES) {
      throw new NoteError("too_many_signatures", "more than " + MAX_SIGNATURES);
    }
    const signatures = lines.map((line) => {
      if (!line.startsWith(SIG_PREFIX)) throw new NoteError("malformed_note", "not a signature line");
      const rest = line.slice(SIG_PREFIX.length);
      const space = rest.indexOf(" ");
      const name = space < 0 ? rest : rest.slice(0, space);
      checkName(name, "malformed_note");
      const raw = unb64(space < 0 ? "" : rest.slice(space + 1));
      if (raw === null) throw new NoteError("malformed_note", "a signature is not base64");
      if (raw.length < 5) throw new NoteError("malformed_note", "signature by " + name + " is too short");
      return { name, id: raw.subarray(0, 4), signature: raw.subarray(4) };
    });
    return { text: note.slice(0, split + 1), signatures };
  }

  const importedKeys = new Map();

  async function ed25519Verify(publicKey, signature, message) {
    if (signature.length !== 64) return false;
    if ((await webcrypto).ed25519) {
      const cacheKey = hex(publicKey);
      try {
        if (!importedKeys.has(cacheKey)) {
          importedKeys.set(cacheKey, await subtle().importKey(
            "raw", publicKey, { name: "Ed25519" }, false, ["verify"]));
        }
        return await subtle().verify({ name: "Ed25519" }, importedKeys.get(cacheKey),
          signature, message);
      } catch (e) {
        if (!(e && e.name === "NotSupportedError")) return false;
      }
    }
    return (await fallback()).verify(publicKey, signature, message);
  }

  /* c2sp.org/signed-note: an Ed25519 signature of the text; c2sp.org/tlog-cosignature: a
   * timestamp and an Ed25519 signature of "cosignature/v1\ntime T\n" and the text. */
  async function signed(key, text, signature) {
    let message = utf8.encode(text);
    if (key.type === COSIGNATURE_V1) {
      if (signature.length !== 72 || signature[0] >= 0x80) return false;
      const time = new DataView(signature.buffer, signature.byteOffset, 8).getBigUint64(0);
      message = concat(utf8.encode("cosignature/v1\ntime " + time + "\n"), message);
      signature = signature.subarray(8);
    }
    return ed25519Verify(key.publicKey, signature, message);
  }

  /* The given keys that signed the parsed note (audit/notes.py verify_parsed_note). */
  async function noteSigners(parsed, keys) {
    const known = new Map();
    for (const k of keys) known.set(k.name + "+" + hex(k.id), k);
    const verified = [];
    for (const sig of parsed.signatures) {
      const signer = known.get(sig.name + "+" + hex(sig.id));
      if (signer === undefined || verified.includes(signer)) continue;
      if (!(await signed(signer, parsed.text, sig.signature))) {
        throw new NoteError("bad_signature", signer.name + "+" + hex(signer.id) + " did not sign this");
      }
      verified.push(signer);
    }
    if (!verified.length) {
      const others = parsed.signatures.map((s) => s.name + "+" + hex(s.id));
      if (others.length) {
        throw new NoteError("other_key", "signed by " + others.join(", ") + ", not by " +
          ([...known.keys()].join(", ") || "any key given"));
      }
      throw new NoteError("unverified", "no given key signed this note");
    }
    return verified;
  }

  function parseCheckpoint(text) {
    checkText(text, "malformed_checkpoint");
    const lines = text.slice(0, -1).split("\n");
    if (lines.length < 3 || !lines.every((l) => l)) {
      throw new NoteError("malformed_checkpoint", "need origin, size and root lines, none empty");
    }
    const [origin, size, root64, ...extensions] = lines;
    if (!(DECIMAL.test(size) && size.length <= 20 && BigInt(size) <= MAX_TREE_SIZE)) {
      throw new NoteError("malformed_checkpoint", "bad tree size " + JSON.stringify(size));
    }
    const root = unb64(root64);
    if (root === null || root.length !== 32 || b64(root) !== root64) {
      throw new NoteError("malformed_checkpoint", "bad root hash " + JSON.stringify(root64));
    }
    return { origin, size: Number(size), root, extensions };
  }

  function respelled(parsed) {
    return parsed.text + "\n" + parsed.signatures.map((s) =>
      SIG_PREFIX + s.name + " " + b64(concat(s.id, s.signature)) + "\n").join("");
  }

  /* The checkpoint a note signs, once its signature, spelling and origin hold
   * (audit/verify.py signed_checkpoint). */
  async function signedCheckpoint(note, keys, origin, seq) {
    if (!keys.length) throw new AuditError("no_host_key", "the header names no host key", seq);
    let parsed, checkpoint;
    try {
      parsed = parseNote(note);
      await noteSigners(parsed, keys);
      checkpoint = parseCheckpoint(parsed.text);
    } catch (error) {
      if (!(error instanceof NoteError)) throw error;
      throw new AuditError(NOTE_ERRORS[error.code] || "malformed_checkpoint",
        (error.code === "other_key" ? "a checkpoint is " : error.code + ": ") + error.detail, seq);
    }
    if (respelled(parsed) !== note) {
      throw new AuditError("malformed_checkpoint", "a signature line is not in its one " +
        "canonical spelling", seq);
    }
    if (checkpoint.origin !== origin) {
      throw new AuditError("wrong_origin", "the checkpoint is for " +
        JSON.stringify(checkpoint.origin) + ", not " + JSON.stringify(origin), seq);
    }
    return checkpoint;
  }

  function unb64Hash(text, seq) {
    const raw = isStr(text) ? unb64(text) : null;
    if (raw === null || raw.length !== 32 || b64(raw) !== text) {
      throw new AuditError("malformed_checkpoint", JSON.stringify(text) + " is not a base64 " +
        "SHA-256 hash", seq);
    }
    return raw;
  }

  function isOriginOf(text, log, id) {
    const suffix = "/" + log + "/" + id;
    return text.endsWith(suffix) && ORIGIN_PREFIX.test(text.slice(0, -suffix.length));
  }

  // -- headers (the CLI reads them with pydantic, strict, no extra field) ------------------

  function headerField(h, name, check, required, what) {
    if (!Object.hasOwn(h, name)) {
      if (required) throw new AuditError("malformed_header", name + ": Field required");
      return;
    }
    if (!check(h[name])) throw new AuditError("malformed_header", name + ": " + what);
  }

  const nullOr = (check) => (v) => v === null || check(v);
  const hex64 = (v) => isStr(v) && HEX64.test(v);
  const strList = (v) => Array.isArray(v) && v.every(isStr);
  const between = (lo) => (v) => isInt(v) && v >= lo;

  async function readHeader(h, fields) {
    if (!isDict(h)) throw new AuditError("malformed_header", "header: a JSON object is needed");
    for (const name of Object.keys(h)) {
      if (!Object.hasOwn(fields, name)) {
        throw new AuditError("malformed_header", name + ": Extra inputs are not permitted");
      }
    }
    for (const [name, [check, required]] of Object.entries(fields)) {
      headerField(h, name, check, required, "not of its type");
    }
    return h;
  }

  async function headerKey(h) {
    if (h.host_key === null) return null;
    let key;
    try {
      key = await parseVerifierKey(h.host_key);
    } catch (error) {
      if (!(error instanceof NoteError)) throw error;
      throw new AuditError("malformed_header", "host_key: " + error.code + ": " + error.detail);
    }
    if (key.text !== h.host_key) {
      throw new AuditError("malformed_header", "host_key is not in its one spelling");
    }
    return key;
  }

  const MATCH_HEADER = {
    format: [(v) => v === MATCH_FORMAT, true], kind: [(v) => v === "public" || v === "full", true],
    match: [isStr, true], origin: [isStr, true], game: [isStr, true],
    rules_version: [isStr, true], season: [isStr, true], players: [strList, true],
    seed_commitment: [hex64, true], setup_commitment: [hex64, true],
    host_key: [nullOr(isStr), true], entries: [between(2), true],
    checkpoints: [nullOr(between(0)), false], host_seed: [nullOr(isStr), false],
    salt_key: [nullOr(hex64), false], weak_seed: [nullOr((v) => v === true), false],
    unsigned: [nullOr((v) => v === true), false],
  };

  const SEASON_HEADER = {
    format: [(v) => v === SEASON_FORMAT, true], kind: [(v) => v === "public" || v === "full", true],
    season: [isStr, true], origin: [isStr, true], matches: [strList, true],
    host_key: [nullOr(isStr), true], entries: [between(1), true],
    checkpoints: [nullOr(between(0)), false], salt_key: [nullOr(hex64), false],
  };

  function fullBundle() {
    return new AuditError("full_bundle", "a full bundle: the browser checks public bundles " +
      "only; run arbiter verify on it, which re-runs the rules");
  }

  // -- a match's public bundle (audit/verify.py) -------------------------------------------

  const ENVELOPE = ["v", "match", "seq", "round", "prev", "kind", "actor", "at", "public",
    "postings", "seals", "hash"];
  const PART = ["audience", "kind", "actor", "at", "data", "postings"];
  const POSTING = ["player", "asset", "amount", "reason"];

  function arePostings(postings) {
    return Array.isArray(postings) && postings.every((p) => keysAre(p, POSTING) &&
      isStr(p.player) && isStr(p.asset) && isInt(p.amount) && isStr(p.reason));
  }

  function checkPart(part, seq, index) {
    if (!(keysAre(part, PART) && isStr(part.kind) && isStr(part.actor) && isDict(part.data) &&
          arePostings(part.postings) && (part.at === null || isStr(part.at)) &&
          (part.audience === "host" || strList(part.audience)))) {
      throw new AuditError("bad_opening", "part " + index + " is not {audience, kind, actor, " +
        "at, data, postings}", seq);
    }
  }

  function matchKindOf(value) {
    if (!isDict(value)) return null;
    const keys = Object.keys(value);
    if (keys.length === 1) {
      return ["header", "opening", "opened", "checkpoint"].includes(keys[0]) ? keys[0] : null;
    }
    return Object.hasOwn(value, "hash") ? "entry" : null;
  }

  async function matchSeed(hostSeed, contributions) {
    if (!contributions.some((c) => c !== null && c !== undefined)) return hostSeed;
    const joined = [hostSeed, ...contributions.map((c) => c || "")].join("|");
    return hex(await sha256(utf8.encode(joined)));
  }

  /* What a match's verifier and a season's share, as audit/verify.py and audit/season_verify.py
   * check each log: the run over the lines, the chain of entries, each signed checkpoint (in
   * the CLI's order, so that both name the same first failure) and the end. Each names its own
   * lines (`take`), header, entries and checkpoint extension lines. */
  class LogVerifier {
    constructor(key, seen) {
      this.keys = key ? [key] : [];
      this.seen = seen;
      this.header = null;
      this.line = 0;
      this.size = 0;
      this.prev = GENESIS_PREV;
      this.tree = new TreeBuilder();
      this.checkpoints = [];
    }

    async run(lines) {
      try {
        for (const raw of lines) {
          this.line += 1;
          await this.take(parseLine(raw, this.size));
        }
        if (this.header === null) throw new AuditError("malformed_header", "the bundle is empty");
        await this.finish();
      } catch (error) {
        if (error instanceof AuditError) error.line = error.line || this.line || null;
        throw error;
      }
      return this.result();
    }

    async adopt(h) {
      const signer = await headerKey(h);
      if (h.kind === "full") throw fullBundle();
      this.keys = this.keys.length ? this.keys : (signer ? [signer] : []);
      this.header = h;
    }

    /* The chain's checks of entry `seq`, once its hash holds. */
    chained(e, seq) {
      if (e.seq !== seq) {
        throw new AuditError("bad_seq", "found seq " + JSON.stringify(e.seq) + " where seq " +
          seq + " is due: an entry was dropped, inserted or moved", seq);
      }
      if (e.prev !== this.prev) {
        throw new AuditError("broken_chain", "prev is not the hash of the entry before", seq);
      }
      if (seq > this.header.entries) {
        throw new AuditError("unexpected_line", "the header announces " + this.header.entries +
          " entries", seq);
      }
    }

    /* Entry `seq` into the tree: the first entries of a log this browser saw before must be
     * the ones it saw (audit/witness.py). */
    async append(e, leaf, seq) {
      await this.tree.append(leaf);
      this.prev = e.hash;
      this.size = seq;
      const seen = this.seen;
      if (seen && seq === seen.size && !equalBytes(await this.tree.root(), seen.root)) {
        throw new AuditError("inconsistent_checkpoints", "the first " + seen.size + " entries " +
          "are not the log of " + seen.origin + " seen before under a signed checkpoint of " +
          "that size: the host signed two histories", seq);
      }
    }

    /* A checkpoint line: its shape, whether the log takes one, the count the header
     * announces, the host's signature, the log's own extension lines, its place after the
     * entry of its size, its consistency with the one before and its root; then what only
     * the log checks of it (`signed`, which keeps it). */
    async checkpoint(c) {
      const seq = this.size || null;
      if (!(keysAre(c, ["note", "consistency"]) && isStr(c.note) && Array.isArray(c.consistency))) {
        throw new AuditError("malformed_checkpoint", "a checkpoint line is {note, consistency}", seq);
      }
      this.takesCheckpoints(seq);
      const announced = get(this.header, "checkpoints");
      if (announced !== null && this.checkpoints.length >= announced) {
        throw new AuditError("unexpected_line", "the header announces " + announced +
          " checkpoints", seq);
      }
      const checkpoint = await signedCheckpoint(c.note, this.keys, this.header.origin, seq);
      const lines = this.extensions(checkpoint.extensions);
      if (this.misplaced(checkpoint.size)) {
        throw new AuditError("checkpoint_misplaced", "a checkpoint of size " + checkpoint.size +
          " must follow entry " + checkpoint.size + ", not entry " + this.size, seq);
      }
      const previous = this.checkpoints.length ? this.checkpoints[this.checkpoints.length - 1] : null;
      const proof = c.consistency.map((x) => unb64Hash(x, seq));
      const consistent = previous ? await verifyConsistency(previous.size, checkpoint.size,
        previous.root, checkpoint.root, proof) : !proof.length;
      if (!consistent) {
        throw new AuditError("inconsistent_checkpoints",
          this.inconsistent(previous ? previous.size : 0), seq);
      }
      if (!equalBytes(checkpoint.root, await this.tree.root())) {
        throw new AuditError("root_mismatch", "the signed root is not the Merkle root of the " +
          "first " + checkpoint.size + " entries", seq);
      }
      this.signed(checkpoint, lines, c.note, seq);
    }

    /* What a log refuses of any checkpoint line (nothing, but in a match created unsigned). */
    takesCheckpoints(seq) {}

    misplaced(size) {
      return size !== this.size;
    }

    inconsistent(size) {
      return "the checkpoint does not extend the one before (size " + size + ")";
    }

    /* The end's checks both logs make, after their own: every checkpoint announced is
     * there, and none older than this browser verified before (audit/witness.py). */
    checkEnd() {
      const announced = get(this.header, "checkpoints");
      if (announced !== null && this.checkpoints.length < announced) {
        throw new AuditError("missing_checkpoint", "the header announces " + announced +
          " checkpoints, the bundle holds " + this.checkpoints.length + ": the last were cut",
          this.size);
      }
      const last = this.checkpoints.length ? this.checkpoints[this.checkpoints.length - 1].size : 0;
      if (this.seen && last < this.seen.size) {
        throw new AuditError("rolled_back", "a signed checkpoint of " + this.seen.size +
          " entries of " + this.seen.origin + " was verified here before; this bundle's last " +
          "covers " + last + " (of its " + this.size + " entries): it was rolled back to an " +
          "older checkpoint", this.size);
      }
    }
  }

  class MatchVerifier extends LogVerifier {
    constructor(key, seen) {
      super(key, seen);
      this.round = 0;
      this.closed = -1;
      this.tree.leaves = [];  // every leaf hash, for the proofs a player's page shows
      this.hashes = [];  // every entry's hash, for the receipts a player's page checks
      this.sealOpened = null;
      this.contributions = {};
      this.ended = false;
      this.results = null;
    }

    result() {
      const h = this.header;
      return { ok: true, kind: "match", id: h.match, origin: h.origin, key: this.keys[0] || null,
        entries: this.size, hashes: this.hashes, leaves: this.tree.leaves,
        checkpoints: this.checkpoints, ended: this.ended,
        results: this.results, unsigned: h.unsigned === true, title: "match " + h.match + " (" +
        h.game + ", " + h.players.length + " players)" };
    }

    async take(value) {
      if (this.header === null) return this.readHeader(value);
      const kind = matchKindOf(value);
      if (this.sealOpened !== null && kind !== "opened") {
        throw new AuditError("missing_seal_proof", "a SealOpened entry is followed by the " +
          "entry it opens and its inclusion proof", this.sealOpened.seq);
      }
      if (kind === "entry") return this.entry(value);
      if (kind === "opening") {
        throw new AuditError("unexpected_line", "an opening that follows no sealed entry of " +
          "a full bundle", this.size || null);
      }
      if (kind === "opened") return this.sealProof(value.opened);
      if (kind === "checkpoint") return this.checkpoint(value.checkpoint);
      if (kind === "header") throw new AuditError("unexpected_line", "a second header", this.size || null);
      throw new AuditError("malformed_line", "neither an entry, an opening nor a checkpoint",
        this.size || null);
    }

    async readHeader(value) {
      if (matchKindOf(value) !== "header") {
        throw new AuditError("malformed_header", "the first line must be the header");
      }
      const h = await readHeader(value.header, MATCH_HEADER);
      const secrets = [get(h, "host_seed") !== null, get(h, "salt_key") !== null];
      const full = h.kind === "full";
      if (secrets[0] !== full || secrets[1] !== full) {
        throw new AuditError("malformed_header", "a full bundle has host_seed and salt_key, " +
          "a public one neither");
      }
      if (!isOriginOf(h.origin, "match", h.match)) {
        throw new AuditError("malformed_header", "origin must be PREFIX/match/" + h.match);
      }
      await this.adopt(h);
    }

    async entry(e) {
      const seq = this.size + 1;
      if (!keysAre(e, ENVELOPE)) {
        throw new AuditError("malformed_entry", "an entry has exactly the fields " +
          [...ENVELOPE].sort().join(", "), seq);
      }
      const leaf = entryBytes(e);
      if (!isStr(e.hash) || e.hash.length !== 64 ||
          hex(await sha256(concat(EVENT_PREFIX, leaf))) !== e.hash) {
        throw new AuditError("bad_hash", "the hash is not SHA-256 of the entry's canonical text", seq);
      }
      this.chained(e, seq);
      this.checkEnvelope(e, seq);
      if (seq <= 2) this.checkAgainstHeader(e);
      else if (NOTED.has(e.kind)) await this.publicFact(e);
      const round = e.round;
      if (round < this.round || round <= this.closed) {
        throw new AuditError("bad_round", "round " + round + " comes after round " +
          Math.max(this.round, this.closed) + " was under way or closed", seq);
      }
      if (round > this.round) {
        this.checkSignedClose(seq - 1);
        this.round = round;
      }
      await this.append(e, leaf, seq);
      this.hashes.push(e.hash);
    }

    checkEnvelope(e, seq) {
      const seals = e.seals;
      if (!pyEq(e.v, VERSION) || !pyEq(e.match, this.header.match) || !isInt(e.round) ||
          !Array.isArray(seals) || !seals.every((s) => isStr(s) && HEX64.test(s))) {
        throw new AuditError("malformed_entry", "needs v " + VERSION + ", match " +
          JSON.stringify(this.header.match) + ", an integer round and hex commitments", seq);
      }
      let shaped;
      if (e.kind === null) {
        shaped = e.actor === null && e.at === null && e.public === null && e.postings === null;
      } else {
        shaped = isStr(e.kind) && isStr(e.actor) && (e.at === null || isStr(e.at)) &&
          isDict(e.public) && arePostings(e.postings);
      }
      if (!shaped) {
        throw new AuditError("malformed_entry", "a sealed entry shows only its commitments; a " +
          "public one its kind, actor, time and data", seq);
      }
      const due = e.kind === null ? SEALS : (e.kind === "CommandAccepted" ? 1 : 0);
      if (seals.length !== due) {
        throw new AuditError("malformed_entry", "the entry carries " + due + " commitments, " +
          "not " + seals.length, seq);
      }
    }

    checkAgainstHeader(e) {
      const h = this.header;
      if (e.seq === 1) {
        const genesis = { game: h.game, rules_version: h.rules_version, season: h.season,
          players: h.players, seed_commitment: h.seed_commitment };
        for (const flag of ["weak_seed", "unsigned"]) if (get(h, flag)) genesis[flag] = true;
        if (e.kind !== "MatchCreated" || !pyEq(e.public, genesis) || !pyEq(e.round, 0)) {
          throw new AuditError("header_mismatch", "the header's game, rules version, season, " +
            "players, seed commitment, weak seed or unsigned flag differ from the genesis entry", 1);
        }
      } else if (!(e.seals.length >= 1 && e.seals[0] === h.setup_commitment)) {
        throw new AuditError("header_mismatch", "the header's setup commitment is not the " +
          "sealed setup's", 2);
      }
    }

    async publicFact(e) {
      const data = e.public;
      if (e.kind === "SeedContributed" && isStr(get(data, "player"))) {
        this.contributions[data.player] = get(data, "text");
      } else if (e.kind === "SeedRevealed") {
        const h = this.header;
        const hostSeed = get(data, "host_seed");
        if (!isStr(hostSeed) || hex(await sha256(utf8.encode(hostSeed))) !== h.seed_commitment) {
          throw new AuditError("seed_mismatch", "the revealed host seed does not hash to the " +
            "seed commitment", e.seq);
        }
        if (!pyEq(get(data, "contributions"), this.contributions)) {
          throw new AuditError("seed_mismatch", "the revealed contributions are not the ones " +
            "the log holds", e.seq);
        }
        const seed = await matchSeed(hostSeed, h.players.map((p) =>
          Object.hasOwn(this.contributions, p) ? this.contributions[p] : null));
        if (!pyEq(get(data, "seed"), seed)) {
          throw new AuditError("seed_mismatch", "the revealed match seed does not re-derive " +
            "from the host seed and the contributions", e.seq);
        }
      } else if (e.kind === "MatchEnded") {
        this.results = get(data, "results");
        this.ended = true;
      } else if (e.kind === "MatchAbandoned") {
        this.ended = true;
      } else if (e.kind === "SealOpened") {
        this.sealOpened = e;
      }
    }

    async sealProof(o) {
      const opener = this.sealOpened;
      this.sealOpened = null;
      if (opener === null) {
        throw new AuditError("unexpected_line", "a seal proof that follows no SealOpened entry",
          this.size || null);
      }
      const seq = opener.seq;
      const claim = opener.public;
      if (!(keysAre(o, ["seq", "entry", "proof"]) && keysAre(claim, ["seq", "index", "salt", "part"]) &&
            pyEq(o.seq, claim.seq) && isInt(o.seq) && o.seq > 0 && o.seq < seq &&
            isDict(o.entry) && Array.isArray(o.proof) && isInt(claim.index) &&
            isStr(claim.salt) && HEX64.test(claim.salt))) {
        throw new AuditError("bad_seal_opening", "a SealOpened names {seq, index, salt, part} " +
          "and its proof line {seq, entry, proof}", seq);
      }
      const target = o.entry;
      let included;
      try {
        const proof = o.proof.map((h) => unb64Hash(h, seq));
        const bytes = entryBytes(target);
        included = pyEq(get(target, "seq"), o.seq) &&
          pyEq(get(target, "hash"), hex(await sha256(concat(EVENT_PREFIX, bytes)))) &&
          await verifyInclusion(o.seq - 1, seq, await leafHash(bytes), proof, await this.tree.root());
      } catch (error) {
        if (!(error instanceof AuditError)) throw error;
        included = false;
      }
      if (!included) {
        throw new AuditError("bad_seal_opening", "entry " + o.seq + " as given is not in the log", seq);
      }
      checkPart(claim.part, seq, claim.index);
      const seals = Array.isArray(get(target, "seals")) ? target.seals : [];
      const index = claim.index;
      if (!(index >= 0 && index < seals.length && hex(await sha256(concat(SEAL_PREFIX,
          fromHex(claim.salt), utf8.encode(canonical(claim.part))))) === seals[index])) {
        throw new AuditError("bad_seal_opening", "the disclosed part does not open seal " +
          index + " of entry " + o.seq, seq);
      }
    }

    takesCheckpoints(seq) {
      if (get(this.header, "unsigned")) {
        throw new AuditError("unexpected_line", "a checkpoint in the bundle of a match created " +
          "unsigned", seq);
      }
    }

    extensions(ext) {
      const r = ext.length === 2 ? ROUND_LINE.exec(ext[0]) : null;
      const s = ext.length === 2 ? STATE_LINE.exec(ext[1]) : null;
      if (!r || !s) {
        throw new AuditError("malformed_checkpoint", "expected the extension lines 'round N' " +
          "and 'state HEX'");
      }
      return { round: Number(r[1]), state: s[1] };
    }

    inconsistent(size) {
      return super.inconsistent(size) + ": its consistency proof fails";
    }

    signed(checkpoint, close, note, seq) {
      if (close.round !== this.round) {
        throw new AuditError("bad_round", "the checkpoint closes round " + close.round + ", but " +
          "its last entry belongs to round " + this.round, seq);
      }
      this.checkpoints.push({ round: close.round, size: checkpoint.size, root: checkpoint.root,
        state: close.state, note });
      this.closed = close.round;
    }

    checkSignedClose(last) {
      if (!get(this.header, "unsigned") && this.closed < this.round) {
        throw new AuditError("missing_checkpoint", "round " + this.round + " closed at entry " +
          last + " without the checkpoint the host signs at every close: it was left out of " +
          "the bundle", last);
      }
    }

    finish() {
      const expected = this.header.entries;
      if (this.sealOpened !== null && this.size === expected) {
        throw new AuditError("missing_seal_proof", "the bundle ends before the proof of the " +
          "last SealOpened", this.sealOpened.seq);
      }
      if (this.sealOpened !== null || this.size < expected) {
        throw new AuditError("truncated", "the bundle ends after " + this.size + " of the " +
          expected + " entries its header announces",
          this.size < expected ? this.size + 1 : this.size);
      }
      if (this.ended) this.checkSignedClose(this.size);
      this.checkEnd();
    }
  }

  // -- a season's public bundle (audit/season_verify.py, less the season's rules) ----------

  const SEASON_ENVELOPE = ["v", "season", "seq", "prev", "kind", "actor", "at", "public",
    "seals", "hash"];
  const SEASON_TAGS = ["header", "match_checkpoints", "opening", "cited", "checkpoint"];

  function seasonKindOf(value) {
    if (!isDict(value)) return null;
    const keys = Object.keys(value);
    const tag = keys.length ? keys[0] : "";
    if (keys.length === 1 && SEASON_TAGS.includes(tag)) return tag;
    return Object.hasOwn(value, "hash") ? "entry" : null;
  }

  class SeasonVerifier extends LogVerifier {
    constructor(key, seen) {
      super(key, seen);
      this.citing = null;
      this.matches = new Map();  // each match's signed sizes and roots
      this.added = new Set();  // the matches the season's public entries added
      this.cited = 0;
    }

    result() {
      const h = this.header;
      return { ok: true, kind: "season", id: h.season, origin: h.origin, key: this.keys[0] || null,
        entries: this.size, checkpoints: this.checkpoints, cited: this.cited,
        matches: h.matches.length, title: "season " + h.season + " (" + h.matches.length +
        " matches)" };
    }

    get prefix() {
      return this.header.origin.slice(0, -("/season/" + this.header.season).length);
    }

    async take(value) {
      if (this.header === null) return this.readHeader(value);
      const kind = seasonKindOf(value);
      if (this.citing !== null && kind !== "cited") {
        throw new AuditError("missing_citation", "an entry that rests on a match entry is " +
          "followed by it and its proof", this.citing.seq);
      }
      if (kind === "match_checkpoints") return this.matchCheckpoints(value.match_checkpoints);
      if (["entry", "opening", "checkpoint", "cited"].includes(kind) &&
          this.matches.size < this.header.matches.length) {
        throw new AuditError("unexpected_line", "the matches' checkpoints come first, one line " +
          "per match the header names", this.size || null);
      }
      if (kind === "entry") return this.entry(value);
      if (kind === "opening") {
        throw new AuditError("unexpected_line", "an opening that follows no sealed entry of " +
          "a full bundle", this.size || null);
      }
      if (kind === "cited") return this.citedLine(value.cited);
      if (kind === "checkpoint") return this.checkpoint(value.checkpoint);
      if (kind === "header") throw new AuditError("unexpected_line", "a second header", this.size || null);
      throw new AuditError("malformed_line", "none of header, match checkpoints, entry, " +
        "opening, cited or checkpoint", this.size || null);
    }

    async readHeader(value) {
      if (seasonKindOf(value) !== "header") {
        throw new AuditError("malformed_header", "the first line must be the header");
      }
      const h = await readHeader(value.header, SEASON_HEADER);
      if ((get(h, "salt_key") !== null) !== (h.kind === "full")) {
        throw new AuditError("malformed_header", "a full bundle has the season's salt_key, a " +
          "public one none");
      }
      if (!isOriginOf(h.origin, "season", h.season)) {
        throw new AuditError("malformed_header", "origin must be PREFIX/season/" + h.season);
      }
      if (new Set(h.matches).size !== h.matches.length) {
        throw new AuditError("malformed_header", "matches must be distinct");
      }
      await this.adopt(h);
    }

    async matchCheckpoints(m) {
      const names = this.header.matches;
      if (this.size || this.matches.size === names.length) {
        throw new AuditError("unexpected_line", "match checkpoints after the entries began, or " +
          "for more matches than the header names", this.size || null);
      }
      const expected = names[this.matches.size];
      if (!(keysAre(m, ["match", "notes"]) && pyEq(m.match, expected) && Array.isArray(m.notes))) {
        throw new AuditError("malformed_checkpoint", "expected the checkpoints of " +
          JSON.stringify(expected) + ": {match, notes}");
      }
      const signed = new Map();
      let previous = null;
      const origin = this.prefix + "/match/" + expected;
      for (const n of m.notes) {
        if (!(keysAre(n, ["note", "consistency"]) && isStr(n.note) && Array.isArray(n.consistency))) {
          throw new AuditError("malformed_checkpoint", "a checkpoint of " + expected +
            " is {note, consistency}");
        }
        const checkpoint = await signedCheckpoint(n.note, this.keys, origin, null);
        const proof = n.consistency.map((h) => unb64Hash(h, null));
        if ((previous === null && proof.length) || (previous !== null && !(await verifyConsistency(
            previous.size, checkpoint.size, previous.root, checkpoint.root, proof)))) {
          throw new AuditError("inconsistent_checkpoints", "a checkpoint of " + expected +
            " does not extend the one before");
        }
        signed.set(checkpoint.size, checkpoint.root);
        previous = checkpoint;
      }
      this.matches.set(expected, signed);
    }

    async entry(e) {
      const seq = this.size + 1;
      if (!keysAre(e, SEASON_ENVELOPE)) {
        throw new AuditError("malformed_entry", "a season entry has exactly the fields " +
          [...SEASON_ENVELOPE].sort().join(", "), seq);
      }
      const leaf = entryBytes(e);
      if (hex(await sha256(concat(SEASON_PREFIX, leaf))) !== e.hash) {
        throw new AuditError("bad_hash", "the hash is not SHA-256 of the entry's canonical " +
          "text with the season prefix", seq);
      }
      this.chained(e, seq);
      this.checkEnvelope(e, seq);
      await this.append(e, leaf, seq);
      if (CITING.has(e.kind)) {
        const data = e.public;
        const match = get(data, "match");
        const cited = e.kind === "MatchAdded" ? 1 : get(data, "seq");
        if (!isStr(match) || !isInt(cited)) {
          throw new AuditError("malformed_entry", e.kind + " with data the rules cannot read", seq);
        }
        if (e.kind === "MatchAdded") this.added.add(match);
        this.citing = { seq, kind: e.kind, match, cited };
      }
    }

    checkEnvelope(e, seq) {
      const seals = e.seals;
      if (!pyEq(e.v, VERSION) || !pyEq(e.season, this.header.season) || !Array.isArray(seals) ||
          !seals.every((s) => isStr(s) && s.length === 64)) {
        throw new AuditError("malformed_entry", "needs v " + VERSION + ", season " +
          JSON.stringify(this.header.season) + " and hex commitments", seq);
      }
      const shaped = e.kind === null
        ? e.actor === null && e.at === null && e.public === null && seals.length === 1
        : isStr(e.kind) && isStr(e.actor) && (e.at === null || isStr(e.at)) &&
          isDict(e.public) && !seals.length;
      if (!shaped) {
        throw new AuditError("malformed_entry", "a sealed entry shows only its commitment; a " +
          "public one its kind, actor, time and data", seq);
      }
    }

    async citedLine(c) {
      const citing = this.citing;
      this.citing = null;
      if (citing === null) {
        throw new AuditError("unexpected_line", "a citation that follows no entry resting on a " +
          "match entry", this.size || null);
      }
      const seq = citing.seq;
      if (!(keysAre(c, ["seq", "match", "entry", "proof", "size", "opening"]) &&
            pyEq(c.seq, seq) && pyEq(c.match, citing.match) && isDict(c.entry) &&
            Array.isArray(c.proof) && (c.size === null || isInt(c.size)))) {
        throw new AuditError("malformed_citation", "a citation is {seq, match, entry, proof, " +
          "size, opening} for the entry before it", seq);
      }
      const entry = c.entry;
      const bytes = entryBytes(entry);
      const hashed = pyEq(get(entry, "hash"), hex(await sha256(concat(EVENT_PREFIX, bytes))));
      if (!hashed || !pyEq(get(entry, "match"), citing.match) || !pyEq(get(entry, "seq"), citing.cited)) {
        throw new AuditError("malformed_citation", "the cited entry is not entry " +
          citing.cited + " of " + citing.match + " with its hash", seq);
      }
      const signed = this.matches.get(citing.match) || new Map();
      if (c.size === null) {
        if (c.proof.length || [...signed.keys()].some((size) => size >= citing.cited)) {
          throw new AuditError("malformed_citation", citing.match + " has a signed checkpoint " +
            "covering entry " + citing.cited + ": the citation proves it", seq);
        }
      } else {
        const proof = c.proof.map((h) => unb64Hash(h, seq));
        if (!signed.has(c.size) || !(await verifyInclusion(citing.cited - 1, c.size,
            await leafHash(bytes), proof, signed.get(c.size)))) {
          throw new AuditError("not_in_match_log", "entry " + citing.cited + " of " +
            citing.match + " as cited is not in the log its signed checkpoint of size " +
            c.size + " covers", seq);
        }
      }
      this.cited += 1;
    }

    extensions(ext) {
      if (!ext.length || !STANDINGS_LINE.test(ext[0])) {
        throw new AuditError("malformed_checkpoint", "a season checkpoint's first extension " +
          "line is 'standings HEX'");
      }
      return ext.slice(1).map((line) => {
        const found = MATCH_LINE.exec(line);
        if (!found) throw new AuditError("malformed_checkpoint", "expected 'match SIZE ROOT ID'");
        return { match: found[3], size: Number(found[1]), root: found[2] };
      });
    }

    misplaced(size) {
      return super.misplaced(size) || !this.size;  // none before entry 1 (size 0)
    }

    signed(checkpoint, marks, note, seq) {
      for (const mark of marks) {
        const root = (this.matches.get(mark.match) || new Map()).get(mark.size);
        if (!this.added.has(mark.match) || root === undefined || b64(root) !== mark.root) {
          throw new AuditError("unknown_match_checkpoint", "the checkpoint names a checkpoint " +
            "of " + mark.match + " (size " + mark.size + ") the host did not sign", seq);
        }
      }
      this.checkpoints.push({ size: checkpoint.size, root: checkpoint.root, note });
    }

    finish() {
      const expected = this.header.entries;
      if (this.citing !== null || this.size < expected) {
        throw new AuditError("truncated", "the bundle ends after " + this.size + " of the " +
          expected + " entries its header announces, or before a citation",
          this.size < expected ? this.size + 1 : this.size);
      }
      this.checkEnd();
    }
  }

  // -- the entry point ---------------------------------------------------------------------

  function headerClaim(first, name) {
    try {
      return JSON.parse(strictUtf8.decode(first)).header[name];
    } catch (e) {
      return undefined;
    }
  }

  /* Whether the first line is a bundle's header at all: else not_a_bundle, as
   * audit/any_bundle.py says of an empty file, a receipt or garbage. */
  function notABundle(first) {
    let value;
    try {
      value = first === undefined ? null : JSON.parse(strictUtf8.decode(first));
    } catch (e) {
      value = null;
    }
    if (isDict(value) && isDict(value.header)) return null;
    const said = first === undefined || strictText(first).trim() === "" ? "the file is empty"
      : "its first line is not a bundle's header";
    return { ok: false, code: "not_a_bundle", seq: null, line: null,
      detail: "this is not an audit bundle: " + said + " (arbiter export writes one)" };
  }

  function strictText(bytes) {
    try {
      return strictUtf8.decode(bytes);
    } catch (e) {
      return "?";
    }
  }

  function isSeasonBundle(first) {
    try {
      const value = JSON.parse(strictUtf8.decode(first));
      return value.header.format === SEASON_FORMAT;
    } catch (e) {
      return false;
    }
  }

  /* Verify a public bundle (bytes). `options.key`: the verifier key to pin (a string), else
   * the header's; `options.seen`: {origin, key, size, root (bytes)} of the largest checkpoint
   * of this log checked before. Never throws for a bad bundle: resolves to {ok: false, ...}. */
  async function verifyBundle(bytes, options) {
    options = options || {};
    const lines = splitLines(bytes);
    const seen = options.seen || null;
    const refused = notABundle(lines[0]);
    if (refused) return refused;
    try {
      let given = options.key ? (await parseVerifierKey(options.key)).text : null;
      if (seen) {  // the key this browser saw sign the log before (audit/witness.py check_key)
        const named = given || headerClaim(lines[0], "host_key");
        if (isStr(named) && named !== seen.key) {
          return { ok: false, code: "key_changed", seq: null, line: null, detail: named +
            " signs this log, but " + seen.origin + " was signed by " + seen.key + " when " +
            "this browser first checked it" };
        }
        given = given || seen.key;
      }
      const key = given ? await parseVerifierKey(given) : null;
      const season = lines.length > 0 && isSeasonBundle(lines[0]);
      const verifier = season ? new SeasonVerifier(key, seen) : new MatchVerifier(key, seen);
      return await verifier.run(lines);
    } catch (error) {
      if (error instanceof AuditError) {
        return { ok: false, code: error.code, seq: error.seq, line: error.line, detail: error.detail };
      }
      if (error instanceof NoteError) {
        return { ok: false, code: "invalid_input", seq: null, line: null,
          detail: "the key given: " + error.code + ": " + error.detail };
      }
      if (error instanceof NoCryptography) {
        return { ok: false, code: "no_webcrypto", seq: null, line: null, detail: error.message };
      }
      throw error;
    }
  }

  global.ArbiterAudit = {
    verifyBundle, parseVerifierKey, parseNote, parseCheckpoint, noteSigners, verifyConsistency,
    verifyInclusion, inclusionProof, leafHash, sha256, hex, b64, unb64, canonical, entryBytes,
    cryptography, RULES_CODES,
  };
})(window);
