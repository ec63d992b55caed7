/* Shared by the host and phone pages. Plain JS, no library. Every text a person typed is put in the page with
   textContent (never innerHTML), and the page renders the whole state the server sends, so a page that missed
   updates simply shows the next state. */
"use strict";

const Doodle = (() => {
  /* el("div", {class: "x", dataset: {card: "P1"}, onclick: f}, child, "text", ...) */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "style") for (const [name, v] of Object.entries(value)) node.style.setProperty(name, v);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else if (key in node && typeof value !== "string") node[key] = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function cardImg(id, cls, label) {
    return el("img", {class: "card " + (cls || ""), src: "/card/" + encodeURIComponent(id) + ".svg",
                      alt: label || ("patch " + id), dataset: {card: id}, draggable: "false"});
  }

  const PIPS = {1: [5], 2: [3, 7], 3: [3, 5, 7]};
  function die(value, cls) {
    const face = el("div", {class: "die " + (cls || ""), role: "img", "aria-label": "die: " + value,
                            dataset: {roll: value}});
    for (let i = 1; i <= 9; i++) face.append(el("span", {class: PIPS[value] && PIPS[value].includes(i) ? "pip" : ""}));
    return face;
  }

  const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  /* A short tumble of the die before it shows `value`; none when the person asked for reduced motion. */
  function rollDie(holder, value, cls) {
    holder.replaceChildren(die(value, cls));
    if (reducedMotion()) return;
    const faces = [1, 2, 3];
    let n = 0;
    holder.firstChild.classList.add("rolling");
    const timer = setInterval(() => {
      n += 1;
      if (n >= 8 || !holder.isConnected) {
        clearInterval(timer);
        holder.replaceChildren(die(value, cls));
        return;
      }
      const shown = die(faces[(value + n) % 3], cls + " rolling");
      holder.replaceChildren(shown);
    }, 75);
  }

  /* Re-render `root` with `render()`, keeping what the person is typing (focus, value, caret) in place. */
  function rerender(root, render) {
    const active = document.activeElement;
    const key = active && active.dataset ? active.dataset.keep : null;
    const kept = {};
    root.querySelectorAll("input[data-keep]").forEach((input) => {
      if (input === active || input.dataset.dirty !== "server") kept[input.dataset.keep] = input.value;
    });
    const caret = key && active.selectionStart !== undefined ? [active.selectionStart, active.selectionEnd] : null;
    render();
    root.querySelectorAll("input[data-keep]").forEach((input) => {
      if (input.dataset.keep in kept) input.value = kept[input.dataset.keep];
    });
    if (key) {
      const again = root.querySelector(`[data-keep="${CSS.escape(key)}"]`);
      if (again) {
        again.focus();
        if (caret) { try { again.setSelectionRange(caret[0], caret[1]); } catch (e) { /* number inputs */ } }
      }
    }
  }

  /* A tap must end on the button it began on. A state shown while a finger (or the mouse button) is down would
     replace that button, and the tap would be lost: another player's Done often arrives mid-tap. So a state that
     arrives mid-tap is shown as the tap ends, or after two seconds for a finger resting on the screen. */
  const tap = {fingers: new Set(), held: null, timer: null};
  function tapEnded() {
    tap.fingers.clear();
    clearTimeout(tap.timer);
    const held = tap.held;
    tap.held = null;
    if (held) held();
  }
  document.addEventListener("pointerdown", (event) => {
    tap.fingers.add(event.pointerId);
    clearTimeout(tap.timer);
    tap.timer = setTimeout(tapEnded, 2000);
  }, true);
  for (const type of ["pointerup", "pointercancel"]) {
    document.addEventListener(type, (event) => {
      tap.fingers.delete(event.pointerId);
      setTimeout(() => { if (!tap.fingers.size) tapEnded(); }, 0);  // after the click this tap makes
    }, true);
  }
  function afterTap(show) {
    if (tap.fingers.size) tap.held = show;
    else show();
  }

  /* One WebSocket to the table, reopened after a lock, a reload of the server or a Wi-Fi gap. */
  function connect({hello, onState, onError, onBye, onStatus}) {
    let socket = null;
    let delay = 500;
    let closedForGood = false;
    let version = -1;
    let ready = false;  // hello answered: requests may go
    const outbox = [];
    function open() {
      if (closedForGood || (socket && socket.readyState <= 1)) return;
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(scheme + "//" + location.host + "/ws");
      onStatus("connecting");
      socket.onopen = () => {
        delay = 500;
        version = -1;  // a server started again (--resume) counts its versions from 0
        socket.send(JSON.stringify(hello()));
      };
      socket.onmessage = (event) => {
        let message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        if (message.type === "state") {
          onStatus("online");
          if (!ready) {
            ready = true;
            while (outbox.length) socket.send(JSON.stringify(outbox.shift()));
          }
          if (message.state.version >= version) {
            version = message.state.version;
            afterTap(() => onState(message.state));
          }
        } else if (message.type === "error") onError(message.message);
        else if (message.type === "bye") { closedForGood = true; onBye(message.message); }
      };
      socket.onclose = () => {
        ready = false;
        if (closedForGood) return;
        onStatus("offline");
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 5000);
      };
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden) { delay = 500; open(); } });
    window.addEventListener("online", () => { delay = 500; open(); });
    open();
    return {
      /* A request made while the connection is down is sent once it is back: each names the step it was made
         at, so one that comes too late is refused by the table rather than acting on the next turn. */
      send(message) {
        if (socket && socket.readyState === 1 && ready) { socket.send(JSON.stringify(message)); return; }
        if (outbox.length < 10) outbox.push(message);
        onError("not connected to the table: it will be sent when the connection is back");
      },
    };
  }

  let toastTimer = null;
  function toast(text) {
    const box = document.getElementById("toast");
    box.textContent = text;
    box.classList.add("shown");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => box.classList.remove("shown"), 5000);
  }

  /* Keep the screen on while the page is open, where the browser allows it (secure pages only). */
  async function keepAwake() {
    try {
      if ("wakeLock" in navigator && document.visibilityState === "visible") await navigator.wakeLock.request("screen");
    } catch (e) { /* not allowed here: the screen follows the device's own setting */ }
  }
  document.addEventListener("visibilitychange", keepAwake);

  function seatName(state, id) {
    const seat = state.seats.find((s) => s.id === id);
    return seat ? seat.name : "?";
  }

  function winnersLine(state) {
    if (!state.winners.length) return "";
    const names = state.winners.map((id) => seatName(state, id));
    const best = state.totals[String(state.winners[0])];
    if (names.length === 1) return `${names[0]} wins with ${best} points!`;
    return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the victory with ${best} points!`;
  }

  /* The scoreboard: a row per player, rounds, empty cells, total. `editable(seat, round, field)` says which
     cells take input; `onScore(seatId, round, field, value)` sends one. */
  function scoreboard(state, editable, onScore) {
    const head = el("tr", {}, el("th", {scope: "col", text: "Player"}),
      [1, 2, 3].map((r) => el("th", {scope: "col"}, el("span", {class: "long", text: "Round "}), el("span", {class: "short", text: "R"}), String(r))),
      el("th", {scope: "col", text: "Empty"}), el("th", {scope: "col", text: "Total"}));
    const rows = state.seats.map((seat) => {
      const entries = state.scores[String(seat.id)] || [{}, {}, {}];
      const cell = (round, field) => {
        const value = field === "empty" ? entries[2].empty : entries[round - 1].points;
        if (!editable(seat, round, field)) {
          return el("td", {class: "num", text: value === null || value === undefined ? "–" : String(value)});
        }
        const input = el("input", {type: "number", inputmode: "numeric", min: 0, max: field === "empty" ? 81 : 81,
          value: value === null || value === undefined ? "" : String(value),
          "aria-label": `${seat.name}: ${field === "empty" ? "empty cells" : "round " + round}`,
          dataset: {keep: `score-${seat.id}-${round}-${field}`, dirty: "server"}});
        const send = () => {
          if (input.value === "") return;
          onScore(seat.id, round, field, Number(input.value));
        };
        input.addEventListener("change", send);
        input.addEventListener("keydown", (e) => { if (e.key === "Enter") { input.blur(); } });
        return el("td", {class: "num"}, input);
      };
      const total = state.totals[String(seat.id)];
      const known = entries.map((e) => e.points).filter((p) => p !== null && p !== undefined);
      const soFar = known.reduce((a, b) => a + b, 0) - (entries[2].empty || 0);
      const winner = state.winners.includes(seat.id);
      return el("tr", {class: winner ? "winner" : "", dataset: {seat: seat.id}},
        el("th", {scope: "row", text: seat.name}),
        [1, 2, 3].map((r) => cell(r, "points")), cell(3, "empty"),
        total === null || total === undefined
          ? el("td", {class: "num total"}, known.length ? el("span", {class: "so-far", title: "so far (not all rounds scored)", text: String(soFar)}) : "–")
          : el("td", {class: "num total", text: String(total)}));
    });
    return el("div", {class: "board-wrap"}, el("table", {class: "scoreboard"}, el("thead", {}, head), el("tbody", {}, rows)));
  }

  return {el, cardImg, die, rollDie, rerender, connect, toast, keepAwake, seatName, winnersLine, scoreboard,
          reducedMotion};
})();
