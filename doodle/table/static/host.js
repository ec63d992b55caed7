/* The host page: the big screen in the middle of the table. */
"use strict";

(() => {
  const {el, cardImg, rollDie, rerender, connect, toast, seatName, winnersLine, scoreboard} = Doodle;
  const app = document.getElementById("app");
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("key");
  if (fromHash) {
    sessionStorage.setItem("doodle-host-key", fromHash);
    history.replaceState(null, "", location.pathname);  // the key does not stay in the address bar
  }
  const key = sessionStorage.getItem("doodle-host-key") || "";
  let state = null;
  let shownRollStep = null;
  let firstStep = null;  // the step the table was at when this page opened
  let editing = null;  // the seat being renamed
  let bigQr = false;  // the join code shown large over the table, for a late guest

  const table = connect({
    hello: () => ({type: "hello", role: "host", key}),
    onState: (s) => { state = s; if (firstStep === null) firstStep = s.step; render(); },
    onError: toast,
    onBye: (message) => { app.replaceChildren(el("section", {class: "panel notice"}, el("h1", {text: "Not connected"}), el("p", {text: message}))); },
    onStatus: (s) => { document.body.dataset.status = s; },
  });
  const send = (message) => table.send(message);

  /* A short rattle of the die on each roll, so the table looks up. Browsers let a page play sound only after a
     tap or click on it, so the sound starts with the first one (Deal the cards, at the latest). */
  let audio = null;
  const soundOn = () => localStorage.getItem("doodle-sound") !== "off";
  document.addEventListener("pointerdown", () => {
    if (!audio && window.AudioContext) audio = new AudioContext();
  }, {once: true});
  function rattle() {
    if (!audio || !soundOn()) return;
    const start = audio.currentTime;
    for (let i = 0; i < 4; i++) {
      const at = start + i * 0.07;
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.type = "square";
      tone.frequency.value = 520 - 70 * i;
      level.gain.setValueAtTime(0.0001, at);
      level.gain.exponentialRampToValueAtTime(0.18, at + 0.005);
      level.gain.exponentialRampToValueAtTime(0.0001, at + 0.05);
      tone.connect(level).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.06);
    }
  }

  function soundToggle() {
    const box = el("input", {type: "checkbox", id: "sound", checked: soundOn(),
                             onchange: () => localStorage.setItem("doodle-sound", box.checked ? "on" : "off")});
    return el("label", {class: "toggle", for: "sound"}, box, " A sound on each roll");
  }

  function render() {
    document.body.dataset.stage = state.stage;
    rerender(app, () => {
      app.replaceChildren(state.stage === "lobby" ? lobby() : state.stage === "scoring" || state.stage === "over"
        ? scores() : tablePanel());
    });
    const holder = document.getElementById("die-holder");
    if (holder && state.roll !== null) {
      if (shownRollStep !== state.step) {
        if (state.step !== firstStep) rattle();  // not for the roll already on the table when the page opens
        shownRollStep = state.step;
        rollDie(holder, state.roll, "big");
      }
      else holder.replaceChildren(Doodle.die(state.roll, "big"));
    }
  }

  function header(title) {
    return el("header", {class: "bar"},
      el("h1", {text: title}),
      state.save_error ? el("p", {class: "warning", role: "alert", text: state.save_error}) : null,
      el("button", {type: "button", class: "join-mini", title: "show the join code large",
                    onclick: () => { bigQr = true; render(); }},
        el("img", {class: "qr-mini", src: state.qr, alt: "QR code to join"}),
        el("span", {}, el("span", {class: "muted", text: "Room "}), el("strong", {class: "code", text: state.room_code}))),
      bigQr ? el("div", {class: "qr-overlay", role: "dialog", "aria-label": "join the table",
                         onclick: () => { bigQr = false; render(); }},
        el("div", {class: "panel"},
          el("p", {class: "lead", text: "Scan to join, or open " + state.join_url.split("/#")[0]}),
          el("img", {class: "qr", src: state.qr, alt: "QR code: " + state.join_url}),
          el("p", {class: "lead"}, "Room code ", el("strong", {class: "code big", text: state.room_code})),
          el("p", {class: "muted", text: "Tap to close"}))) : null);
  }

  function seatRow(seat) {
    const online = state.online.includes(seat.id);
    const phone = !seat.phone ? "no phone" : online ? "phone online" : "phone offline";
    if (editing === seat.id) {
      const input = el("input", {type: "text", maxlength: 24, value: seat.name, "aria-label": "new name",
                                 dataset: {keep: "rename-" + seat.id}});
      const save = () => { send({type: "rename", seat: seat.id, name: input.value}); editing = null; render(); };
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") save(); if (e.key === "Escape") { editing = null; render(); } });
      return el("li", {class: "seat editing"}, input,
        el("button", {type: "button", onclick: save, text: "Save"}),
        el("button", {type: "button", class: "quiet", onclick: () => { editing = null; render(); }, text: "Cancel"}));
    }
    return el("li", {class: "seat", dataset: {seat: seat.id}},
      el("span", {class: "name", text: seat.name}),
      el("span", {class: "pill " + (online ? "on" : seat.phone ? "off" : "none"), text: phone}),
      el("span", {class: "actions"},
        el("button", {type: "button", class: "quiet", onclick: () => { editing = seat.id; render(); }, text: "Rename"}),
        seat.phone ? el("button", {type: "button", class: "quiet", title: "let another phone take this seat",
                                    onclick: () => send({type: "free", seat: seat.id}), text: "Free seat"}) : null,
        state.stage === "lobby" ? el("button", {type: "button", class: "quiet danger",
                                                onclick: () => send({type: "remove", seat: seat.id}), text: "Remove"}) : null));
  }

  function autoRollToggle() {
    const box = el("input", {type: "checkbox", id: "auto-roll", checked: state.auto_roll,
                             onchange: () => send({type: "auto_roll", on: box.checked})});
    return el("label", {class: "toggle", for: "auto-roll"}, box, " Roll by itself when everyone is done");
  }

  function lobby() {
    const name = el("input", {type: "text", maxlength: 24, placeholder: "name", "aria-label": "name of a player without a phone",
                              dataset: {keep: "add-name"}});
    const add = (e) => { e.preventDefault(); if (name.value.trim()) { send({type: "add", name: name.value}); name.value = ""; } };
    return el("div", {class: "lobby"},
      el("section", {class: "panel join"},
        el("h1", {text: "Patchwork Doodle"}),
        el("p", {class: "lead", text: "Scan to join with your phone"}),
        el("img", {class: "qr", src: state.qr, alt: "QR code: " + state.join_url}),
        el("p", {class: "address", text: state.join_url.split("/#")[0]}),
        el("p", {class: "lead"}, "Room code ", el("strong", {class: "code big", text: state.room_code}))),
      el("section", {class: "panel players"},
        el("h2", {text: `Players (${state.seats.length} of 6)`}),
        state.seats.length ? el("ul", {class: "seats"}, state.seats.map(seatRow))
                           : el("p", {class: "muted", text: "Nobody yet. Scan the code, or add a player without a phone."}),
        state.seats.length < 6 ? el("form", {class: "add", onsubmit: add}, name, el("button", {type: "submit", text: "Add a player without a phone"})) : null,
        autoRollToggle(),
        el("button", {type: "button", class: "primary huge", disabled: !state.seats.length,
                      onclick: () => send({type: "start"}), text: "Deal the cards"}),
        el("p", {class: "muted small", text: "Everyone needs a printed sheet (doodle sheet) and a pencil."})));
  }

  const place = (radius, angle) => ({"--x": (50 + radius * Math.cos(angle)).toFixed(2) + "%",
                                      "--y": (50 + radius * Math.sin(angle)).toFixed(2) + "%"});

  function circle() {
    const cards = state.circle;
    const n = cards.length;
    const ring = el("div", {class: "circle", dataset: {count: n}});
    const current = state.current_index;
    cards.forEach((id, i) => {
      // clockwise from the top; the token sits before card 0 until the roll, then on the current card
      const angle = (2 * Math.PI * (i + 0.5)) / n - Math.PI / 2;
      const spot = el("div", {class: "spot" + (i === current ? " current" : ""),
                              style: place(41, angle)},
        cardImg(id, "small"), el("span", {class: "label", text: id}));
      ring.append(spot);
    });
    if (current === null || current === undefined) {  // before the roll the token waits in the gap before card 0
      ring.append(el("div", {class: "token", title: "the token", "aria-label": "token", style: place(41, -Math.PI / 2)}));
    } else {
      ring.children[current].append(el("div", {class: "token on-card", title: "the token", "aria-label": "token"}));
    }
    ring.append(el("div", {class: "hub"}, el("div", {id: "die-holder", class: "die-holder"})));
    return ring;
  }

  function players() {
    const waiting = state.waiting_for.length;
    return el("section", {class: "panel roster"},
      el("h2", {text: waiting ? `Waiting for ${waiting}` : "Everyone is done"}),
      el("ul", {class: "done-list"}, state.seats.map((seat) => {
        const online = state.online.includes(seat.id);
        return el("li", {class: seat.done ? "done" : "", dataset: {seat: seat.id}},
          el("button", {type: "button", class: "seat-done", "aria-pressed": String(seat.done),
                        title: seat.done ? "mark as not done" : "mark as done (for a player without a phone)",
                        onclick: () => send({type: "done", seat: seat.id, step: state.step, done: !seat.done})},
            el("span", {class: "check", text: seat.done ? "✓" : ""}),
            el("span", {class: "name", title: seat.name, text: seat.name}),
            el("span", {class: "pill " + (online ? "on" : seat.phone ? "off" : "none"),
                        text: !seat.phone ? "no phone" : online ? "" : "offline"})));
      })),
      state.next ? el("button", {type: "button", class: "primary huge", id: "next",
                                 onclick: () => send({type: "advance", step: state.step}),
                                 text: waiting && state.stage !== "round" ? state.next + " now" : state.next}) : null,
      autoRollToggle(),
      soundToggle(),
      el("details", {class: "manage"}, el("summary", {text: "Players"}), el("ul", {class: "seats"}, state.seats.map(seatRow))));
  }

  function focus() {
    if (state.stage === "turn") {
      const [before, after] = state.neighbours;
      return el("section", {class: "panel focus"},
        el("h2", {class: "current-title"}, "Current patch ", el("strong", {id: "current-card", text: state.current})),
        el("div", {class: "pair"},
          el("figure", {class: "big-card"}, cardImg(state.current, "huge")),
          el("div", {class: "side"},
            el("figure", {class: "mirror"}, cardImg(state.current, "mirrored medium", "mirror image of " + state.current),
               el("figcaption", {text: "mirror image"})),
            el("p", {class: "muted neighbours-title", text: "Neighbours"}),
            el("div", {class: "neighbours"},
              el("figure", {}, cardImg(before, "small"), el("figcaption", {text: "before · " + before})),
              el("figure", {}, cardImg(after, "small"), el("figcaption", {text: "after · " + after}))))));
    }
    if (state.stage === "final") {
      return el("section", {class: "panel focus"},
        el("h2", {text: "Final turn: no roll. Each player draws any one of these three"}),
        el("div", {class: "choices"}, state.choices.map((id) =>
          el("figure", {dataset: {choice: id}}, cardImg(id, "large"), el("figcaption", {text: id})))));
    }
    if (state.stage === "start") {
      return el("section", {class: "panel focus"},
        el("h2", {text: "Everyone draws their start card, anywhere on the grid"}),
        el("div", {class: "starts"}, state.seats.map((seat) =>
          el("figure", {}, cardImg(seat.start_card, "medium"), el("figcaption", {text: `${seat.name} · ${seat.start_card}`})))));
    }
    return el("section", {class: "panel focus"},
      el("h2", {text: `Round ${state.round}`}),
      el("p", {class: "lead", text: "The 2 cards left moved next to the token; 6 new cards follow them."}),
      el("p", {class: "lead", text: "Roll for the first turn."}));
  }

  function tablePanel() {
    const title = state.stage === "start" ? "Start cards"
      : `Round ${state.round} · Turn ${state.turn} of ${state.turns}` + (state.stage === "final" ? " · final turn" : "");
    return el("div", {class: "table-view"}, header(title),
      el("section", {class: "panel ring"}, circle()), focus(), players());
  }

  function scores() {
    const over = state.stage === "over";
    const title = over ? "Final scores" : `Scoring, round ${state.round}`;
    const board = scoreboard(state, (seat, round, field) => round <= state.scored_rounds,
      (seat, round, field, value) => send({type: "score", seat, round, [field]: value}));
    const missing = state.waiting_for.map((id) => seatName(state, id));
    return el("div", {class: "score-view"}, header(title),
      el("section", {class: "panel"},
        over ? el("p", {class: "winners", text: winnersLine(state) || "Type the missing scores to see the winner."})
             : el("p", {class: "lead", text: "Each player scores one rectangle of shaded cells: the largest square inside it, +1 per further row or column (4x3 = 10, 4x5 = 17)." + (state.round === state.rounds ? " Then count the empty cells: -1 each." : "")}),
        board,
        over ? quilts() : null,
        missing.length && !over ? el("p", {class: "muted", text: "Waiting for: " + missing.join(", ")}) : null,
        over ? el("p", {class: "muted", text: `Deal this game again: doodle deal --seed ${state.seed} --players ${state.seats.length}`}) : null,
        el("div", {class: "row"},
          over ? el("button", {type: "button", onclick: download, text: "Download the game record"}) : null,
          state.next ? el("button", {type: "button", class: "primary huge", id: "next",
                                     onclick: () => send({type: "advance", step: state.step}), text: state.next}) : null)));
  }

  /* The end screen: each player's last quilt as read from their photo, beside their total. */
  function quilts() {
    const shown = state.seats.map((seat) => {
      const entries = state.scores[String(seat.id)] || [];
      const last = [...entries].reverse().find((e) => e.quilt);
      if (!last) return null;
      const total = state.totals[String(seat.id)];
      return el("figure", {class: "quilt-figure", dataset: {seat: seat.id}}, quiltSvg(last.quilt, `${seat.name}'s quilt as read`),
        el("figcaption", {}, el("strong", {text: seat.name}), ` · ${total ?? "–"} points`,
          last.overruled && last.overruled.length ? el("span", {class: "overruled", title: last.overruled.join("; "), text: " · confirmed against a check"}) : null));
    }).filter(Boolean);
    return shown.length ? el("div", {class: "quilts"}, shown) : null;
  }

  function quiltSvg(rows, label) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 9 9");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    svg.setAttribute("class", "quilt-svg");
    const square = (x, y, cls) => {
      const r = document.createElementNS(NS, "rect");
      for (const [k, v] of Object.entries({x, y, width: 1, height: 1, class: cls})) r.setAttribute(k, v);
      svg.append(r);
    };
    rows.forEach((row, y) => [...row].forEach((ch, x) => square(x, y, ch === "#" ? "on" : "off")));
    return svg;
  }

  async function download() {
    const response = await fetch("/api/record", {headers: {authorization: "Bearer " + key}});
    if (!response.ok) { toast("the record could not be downloaded"); return; }
    const blob = await response.blob();
    const link = el("a", {href: URL.createObjectURL(blob), download: `doodle-table-${state.seed}.json`});
    document.body.append(link);
    link.click();
    link.remove();
  }

  Doodle.keepAwake();
})();
