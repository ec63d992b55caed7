/* The phone page: join with a name, then the card in your hand, a Done button, and your scores. */
"use strict";

(() => {
  const {el, cardImg, rollDie, rerender, connect, toast, winnersLine, scoreboard} = Doodle;
  const app = document.getElementById("app");
  const STORE = "doodle-seat";
  const roomFromLink = new URLSearchParams(location.hash.slice(1)).get("room") || "";
  let state = null;
  let table = null;
  let hand = {card: null, turns: 0, mirrored: false};  // how this phone holds the current card
  let picked = null;  // the final turn's card taken in hand
  let shownRollStep = null;
  let joinError = "";
  let correcting = false;  // the end screen's corrections are open
  let photoError = "";  // why the last photo was not read (the reader's own words)
  let uploading = false;

  const stored = () => { try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { return null; } };

  function joinForm() {
    const name = el("input", {type: "text", id: "name", maxlength: 24, autocomplete: "nickname", required: true,
                              autofocus: true, dataset: {keep: "join-name"}});
    const room = el("input", {type: "text", id: "room", maxlength: 4, autocapitalize: "characters", autocomplete: "off",
                              required: true, value: roomFromLink, dataset: {keep: "join-room"}});
    const submit = async (event) => {
      event.preventDefault();
      const button = event.target.querySelector("button");
      button.disabled = true;
      try {
        const response = await fetch("/api/join", {method: "POST", headers: {"content-type": "application/json"},
                                                   body: JSON.stringify({name: name.value, room: room.value})});
        const answer = await response.json();
        if (!response.ok) throw new Error(answer.error || "the table refused");
        localStorage.setItem(STORE, JSON.stringify({token: answer.token, name: answer.name}));
        joinError = "";
        start();
      } catch (error) {
        joinError = error.message === "Failed to fetch" ? "the table cannot be reached: is it still running?" : error.message;
        showJoin();
      } finally {
        button.disabled = false;
      }
    };
    return el("form", {class: "panel join-form", onsubmit: submit},
      el("h1", {text: "Patchwork Doodle"}),
      el("p", {class: "lead", text: "Join the table"}),
      el("label", {for: "name", text: "Your name"}), name,
      el("label", {for: "room", text: "Room code (on the table's screen)"}), room,
      joinError ? el("p", {class: "error", role: "alert", text: joinError}) : null,
      el("button", {type: "submit", class: "primary huge", text: "Join"}));
  }

  function showJoin() {
    document.body.dataset.stage = "join";
    rerender(app, () => app.replaceChildren(joinForm()));
  }

  function me() { return state.seats.find((s) => s.id === state.you); }

  function inHand(id, label) {
    if (hand.card !== id) hand = {card: id, turns: 0, mirrored: false};
    const img = cardImg(id, "hand", label);
    const apply = () => { img.style.transform = `rotate(${hand.turns * 90}deg) scaleX(${hand.mirrored ? -1 : 1})`; };
    apply();
    return el("div", {class: "in-hand"},
      el("div", {class: "hand-frame"}, img),
      el("div", {class: "turners"},
        el("button", {type: "button", class: "turn-left", "aria-label": "rotate left", onclick: () => { hand.turns -= 1; apply(); }, text: "⟲ Rotate"}),
        el("button", {type: "button", class: "mirror-btn", "aria-label": "mirror", "aria-pressed": String(hand.mirrored),
                      onclick: (e) => { hand.mirrored = !hand.mirrored; e.currentTarget.setAttribute("aria-pressed", String(hand.mirrored)); apply(); }, text: "⇋ Mirror"}),
        el("button", {type: "button", class: "turn-right", "aria-label": "rotate right", onclick: () => { hand.turns += 1; apply(); }, text: "Rotate ⟳"})));
  }

  function doneButton(label) {
    const seat = me();
    return el("button", {type: "button", id: "done", class: "primary huge" + (seat.done ? " is-done" : ""),
                         "aria-pressed": String(seat.done),
                         onclick: () => table.send({type: "done", step: state.step, done: !seat.done}),
                         text: seat.done ? "Done ✓ (tap to undo)" : label});
  }

  function others() {
    const waiting = state.seats.filter((seat) => !seat.done).map((seat) => seat.name);
    const done = state.seats.filter((seat) => seat.done).map((seat) => seat.name);
    return el("div", {class: "others"},
      waiting.length ? el("p", {text: "Waiting for: " + waiting.join(", ")}) : el("p", {text: "Everyone is done."}),
      done.length ? el("p", {class: "done", text: "Done: " + done.join(", ")}) : null);
  }

  function header() {
    const seat = me();
    const where = {lobby: "waiting for the deal", start: "start card", over: "game over",
                   scoring: `scoring, round ${state.round}`, round: `round ${state.round}`}[state.stage]
      || `round ${state.round} · turn ${state.turn}`;
    return el("header", {class: "bar"}, el("strong", {class: "me", text: seat.name}), el("span", {class: "where", text: where}),
      state.roll !== null && state.stage === "turn" ? el("span", {id: "die-holder", class: "die-holder"}) : null);
  }

  function body() {
    const seat = me();
    switch (state.stage) {
      case "lobby":
        return el("section", {class: "panel"}, el("p", {class: "lead", text: `You are in, ${seat.name}.`}),
          el("p", {text: "Waiting for the host to deal. At the table:"}),
          el("p", {class: "others", text: state.seats.map((s) => s.name).join(", ")}));
      case "start":
        return el("section", {class: "panel"}, el("h2", {}, "Your start card ", el("strong", {text: seat.start_card})),
          el("p", {class: "muted", text: "Draw it anywhere on your grid, turned or mirrored as you like."}),
          inHand(seat.start_card), doneButton("I have drawn it"), others());
      case "turn": {
        const [before, after] = state.neighbours;
        return el("section", {class: "panel"},
          el("h2", {}, "Current patch ", el("strong", {id: "current-card", text: state.current})),
          inHand(state.current),
          el("div", {class: "neighbours"},
            el("figure", {}, cardImg(before, "small"), el("figcaption", {text: "before · " + before})),
            el("figure", {}, cardImg(after, "small"), el("figcaption", {text: "after · " + after}))),
          doneButton("Done (drawn or passed)"), others());
      }
      case "final": {
        if (!state.choices.includes(picked)) picked = state.choices[0];
        return el("section", {class: "panel"}, el("h2", {text: "Final turn: draw any one of these"}),
          el("div", {class: "choices"}, state.choices.map((id) =>
            el("button", {type: "button", class: "choice" + (id === picked ? " picked" : ""), "aria-pressed": String(id === picked),
                          onclick: () => { picked = id; render(); }}, cardImg(id, "small"), el("span", {text: id})))),
          inHand(picked), doneButton("Done"), others());
      }
      case "round":
        return el("section", {class: "panel"}, el("h2", {text: `Round ${state.round}`}),
          el("p", {class: "lead", text: "The next round is laid out. Waiting for the roll…"}));
      case "scoring":
        return scoring();
      case "over":
        return el("section", {class: "panel"}, el("h2", {text: "Final scores"}),
          el("p", {class: "winners", text: winnersLine(state) || "Waiting for every score…"}),
          scoreboard(state, () => false, sendScore),
          correcting ? corrections() : el("button", {type: "button", id: "correct", onclick: () => { correcting = true; render(); },
                                                     text: "Correct my scores"}));
      default:
        return el("p", {text: state.stage});
    }
  }

  function sendScore(seatId, round, field, value) { table.send({type: "score", round, [field]: value}); }

  /* After the game: my round scores and empty cells, one field each, sent when changed. */
  function corrections() {
    const entries = state.scores[String(state.you)];
    const fields = [1, 2, 3].map((round) => ["points", round, "Round " + round, entries[round - 1].points])
      .concat([["empty", 3, "Empty cells", entries[2].empty]]);
    const inputs = fields.map(([field, round, label, value]) => [field, round, label,
      el("input", {type: "number", inputmode: "numeric", min: 0, max: 81, id: `fix-${field}-${round}`,
                   value: value ?? "", dataset: {keep: `fix-${field}-${round}`}}), value]);
    const submit = (event) => {
      event.preventDefault();
      for (const [field, round, , input, value] of inputs) {
        if (input.value !== "" && Number(input.value) !== value) sendScore(state.you, round, field, Number(input.value));
      }
      correcting = false;
      render();
    };
    return el("form", {class: "score-form", onsubmit: submit},
      inputs.map(([field, round, label, input]) => [el("label", {for: input.id, text: label}), input]),
      el("button", {type: "submit", class: "primary huge", text: "Save"}));
  }

  const COLUMNS = "abcdefghi";
  const cellName = (row, col) => COLUMNS[col] + (row + 1);

  async function sendPhoto(file) {
    if (!file) return;
    uploading = true; photoError = ""; render();
    const form = new FormData();
    form.append("photo", file);
    try {
      const response = await fetch("/api/photo", {method: "POST", body: form,
                                                  headers: {authorization: "Bearer " + (stored() || {}).token}});
      const answer = await response.json().catch(() => ({error: `the table answered ${response.status}`}));
      if (!response.ok) throw new Error(answer.error || "the table could not read it");
    } catch (error) {
      photoError = error.message === "Failed to fetch" ? "the photo did not reach the table: try again" : error.message;
    } finally {
      uploading = false; render();
    }
  }

  /* The camera button: a file input with capture opens the rear camera on a phone, over plain HTTP too. */
  function photoButton(label, primary) {
    const input = el("input", {type: "file", accept: "image/jpeg,image/png,image/webp,image/*", capture: "environment",
                               id: "photo-input", class: "visually-hidden",
                               onchange: (e) => { sendPhoto(e.target.files[0]); e.target.value = ""; }});
    return el("label", {class: "photo-button" + (primary ? " primary huge" : ""), for: "photo-input"}, input, label);
  }

  /* The reading as a grid the player taps: shaded cells dark, the best rectangle outlined, doubts marked. */
  function readingGrid(reading) {
    const marked = {};
    for (const doubt of reading.doubts) for (const name of doubt.cells) marked[name] = doubt.problem ? "problem" : "doubt";
    const rect = reading.rectangle;
    const inRect = (r, c) => rect && r >= rect.row && r < rect.row + rect.height && c >= rect.col && c < rect.col + rect.width;
    const cells = [el("span", {class: "axis"}), [...COLUMNS].map((letter) => el("span", {class: "axis", text: letter}))];
    for (let r = 0; r < 9; r++) {
      cells.push(el("span", {class: "axis", text: String(r + 1)}));
      for (let c = 0; c < 9; c++) {
        const name = cellName(r, c);
        const shaded = reading.quilt[r][c] === "#";
        const classes = ["qcell", shaded ? "shaded" : "", inRect(r, c) ? "in-rect" : "", marked[name] || "",
                         reading.tapped.includes(name) ? "tapped" : ""].filter(Boolean).join(" ");
        cells.push(el("button", {type: "button", class: classes, dataset: {cell: name},
                                 "aria-label": `${name} ${shaded ? "shaded" : "empty"}${marked[name] ? ", check it" : ""}`,
                                 onclick: () => table.send({type: "photo_cell", cell: name, shaded: !shaded})}));
      }
    }
    return el("div", {class: "quilt-grid", role: "group", "aria-label": "your quilt as read: tap a cell to correct it"}, cells);
  }

  function readingPanel(reading) {
    const problems = reading.doubts.filter((d) => d.problem);
    const doubts = reading.doubts.filter((d) => !d.problem);
    const rect = reading.rectangle;
    const last = reading.round === state.rounds;
    return el("div", {class: "reading", id: "reading"},
      el("p", {class: "lead", id: "reading-score"},
        rect ? `Best rectangle ${rect.width}×${rect.height}: ${reading.score} points` : "No shaded rectangle: 0 points",
        last ? `, ${reading.empty} empty cells` : ""),
      reading.method === "grid" ? el("p", {class: "muted", text: `Read from the grid lines alone (no corner markers): check every cell (confidence ${Math.round(reading.confidence * 100)}%).`}) : null,
      readingGrid(reading),
      el("p", {class: "muted", text: "Tap a cell that was read wrong to change it. Blue: your best rectangle."}),
      problems.length ? el("div", {class: "problems", role: "alert"},
        el("p", {class: "error", text: "This does not fit the game:"}),
        el("ul", {}, problems.map((d) => el("li", {text: (d.cells.length && d.kind !== "quilt" ? d.cells.join(", ") + ": " : "") + d.reason})))) : null,
      doubts.length ? el("div", {class: "doubts"},
        el("p", {text: "Not sure about (outlined in amber):"}),
        el("ul", {}, doubts.map((d) => el("li", {text: `${d.name}: ${d.reason}`})))) : null,
      problems.length
        ? el("button", {type: "button", id: "confirm-anyway", class: "huge",
                        onclick: () => table.send({type: "photo_confirm", anyway: true}),
                        text: "My sheet really is so: confirm anyway"})
        : el("button", {type: "button", id: "confirm-reading", class: "primary huge",
                        onclick: () => table.send({type: "photo_confirm"}), text: `Confirm ${reading.score} points`}),
      el("div", {class: "reading-actions"}, photoButton("Retake the photo", false),
        el("button", {type: "button", class: "quiet", onclick: () => table.send({type: "photo_drop"}),
                      text: "Type my score instead"})));
  }

  function scoring() {
    const seat = me();
    const entries = state.scores[String(seat.id)];
    const entry = entries[state.round - 1];
    const last = state.round === state.rounds;
    if (state.reading) {
      return el("section", {class: "panel"}, el("h2", {text: `Scoring, round ${state.round}: your sheet`}),
        readingPanel(state.reading));
    }
    const points = el("input", {type: "number", id: "points", inputmode: "numeric", min: 0, max: 81,
                                value: entry.points ?? "", dataset: {keep: "points"}});
    const empty = last ? el("input", {type: "number", id: "empty", inputmode: "numeric", min: 0, max: 81,
                                      value: entries[2].empty ?? "", dataset: {keep: "empty"}}) : null;
    const submit = (event) => {
      event.preventDefault();
      const message = {type: "score", round: state.round};
      if (points.value !== "") message.points = Number(points.value);
      if (empty && empty.value !== "") message.empty = Number(empty.value);
      if (message.points === undefined && message.empty === undefined) { toast("type your score"); return; }
      table.send(message);
      document.activeElement.blur();
    };
    const sent = entry.points !== null && (!last || entries[2].empty !== null);
    const busy = uploading || state.reading_busy;
    return el("section", {class: "panel"},
      el("h2", {text: `Scoring, round ${state.round}`}),
      busy ? el("p", {class: "lead", id: "reading-busy", role: "status", text: "Reading your photo…"})
        : photoButton(sent && entry.by === "photo" ? "Photograph my sheet again" : "📷 Photograph my sheet", !sent),
      photoError ? el("p", {class: "error", id: "photo-error", role: "alert", text: photoError}) : null,
      el("p", {class: "muted", text: "Or type it: your best rectangle of shaded cells scores the largest square inside it, +1 per further row or column (4x3 = 10, 4x5 = 17)."}),
      el("form", {class: "score-form", onsubmit: submit},
        el("label", {for: "points", text: "Rectangle score"}), points,
        last ? el("label", {for: "empty", text: "Empty cells"}) : null, empty,
        el("button", {type: "submit", class: "huge", id: "send-score", text: sent ? "Correct it" : "Send"})),
      sent ? el("p", {class: "ok", id: "score-sent", text: `Sent ✓ ${entry.points}` + (last ? `, ${entries[2].empty} empty` : "") + (entry.by === "photo" ? " (from your photo)" : "")}) : null,
      scoreboard(state, () => false, sendScore));
  }

  function render() {
    if (!state || state.you === undefined) return;
    document.body.dataset.stage = state.stage;
    rerender(app, () => app.replaceChildren(header(), body()));
    const holder = document.getElementById("die-holder");
    if (holder) {
      if (shownRollStep !== state.step) { shownRollStep = state.step; rollDie(holder, state.roll, "small"); }
      else holder.replaceChildren(Doodle.die(state.roll, "small"));
    }
  }

  function start() {
    const seat = stored();
    if (!seat) { showJoin(); return; }
    if (table) return;  // already connected; the next state arrives by itself
    table = connect({
      hello: () => ({type: "hello", role: "seat", token: (stored() || {}).token}),
      onState: (s) => { state = s; render(); },
      onError: toast,
      onBye: (message) => { localStorage.removeItem(STORE); table = null; state = null; joinError = message; showJoin(); },
      onStatus: (s) => { document.body.dataset.status = s; },
    });
  }

  start();
  Doodle.keepAwake();
})();
