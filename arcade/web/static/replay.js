/* The replay page of one game: its positions (computed by the arcade from the rules, embedded as
   JSON in #replay-data) drawn one at a time, stepped with the buttons, a click on a move, and the
   keys ← → Home End; played move after move with Play (Space), at the speed chosen (+ −), until
   it is paused or reaches the end. A board wider than its box is drawn smaller to fit it (fit:
   its sizes are in em of the board's font), so that a phone sees the whole board. Every text
   from the data goes in as text (textContent), never as markup.

   The data is compact (arcade/web/frames.py, Replay.as_json): "texts" holds each text once, and
   each of "frames" is [changes, status, who, move, ...say], the changes made to the step before's
   board (a path of keys and indices joined by "." to its new value) and the rest indices into
   "texts". The frames are read back here once, into whole boards. */
(function () {
  "use strict";
  var source = document.getElementById("replay-data");
  if (!source) { return; }
  var data = JSON.parse(source.textContent);
  var fixed = data.fixed;
  var frames = expand(data);

  function expand(data) {
    var texts = data.texts, out = [], board = {};
    data.frames.forEach(function (entry, index) {
      board = JSON.parse(JSON.stringify(board));
      Object.keys(entry[0]).forEach(function (path) {
        var keys = path.split("."), node = board;
        for (var i = 0; i < keys.length - 1; i++) { node = node[keys[i]]; }
        node[keys[keys.length - 1]] = entry[0][path];
      });
      out.push({board: board, status: texts[entry[1]], who: texts[entry[2]], move: texts[entry[3]],
                say: entry.slice(4).map(function (k) { return texts[k]; }), index: index});
    });
    return out;
  }
  var boardEl = document.getElementById("board");
  var statusEl = document.getElementById("status");
  var stepEl = document.getElementById("step");
  var movesEl = document.getElementById("moves");
  var commentaryEl = document.getElementById("commentary");
  var playEl = document.getElementById("play");
  var speedEl = document.getElementById("speed");
  var step = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  // -- D-Football: the course's HTML board ------------------------------------------------------
  function dfootball(b) {
    var wrap = el("div", "df");
    var head = el("div", "df-heading", b.heading);
    if (b.side !== null) { head.classList.add("side" + b.side); }
    wrap.appendChild(head);
    var table = el("table", "df-board");
    var players = el("tr", "players"), numbers = el("tr", "numbers");
    var last = {}, valid = {};
    b.last.forEach(function (s) { last[s] = true; });
    b.valid.forEach(function (s) { valid[s] = true; });
    for (var sq = 1; sq <= fixed.squares; sq++) {
      var piece = b.squares[sq - 1];
      var cell = el("td", piece === 1 ? "michigan" : piece === -1 ? "ohio" : "empty");
      cell.dataset.square = sq;
      cell.dataset.piece = piece === 1 ? "M" : piece === -1 ? "O" : "";
      if (piece) {
        cell.appendChild(el("span", "token", piece === 1 ? "M" : "O"));
      } else if (b.ghost && b.ghost[0] === sq) {
        cell.appendChild(el("span", "ghost side" + b.ghost[1], b.ghost[1] === 0 ? "M" : "O"));
        cell.dataset.ghost = b.ghost[1] === 0 ? "M" : "O";
      }
      if (last[sq]) { cell.classList.add("last"); }
      players.appendChild(cell);
      var num = el("td", valid[sq] ? "valid" : "", sq);
      if (last[sq]) { num.classList.add("last"); }
      numbers.appendChild(num);
    }
    table.appendChild(players);
    table.appendChild(numbers);
    wrap.appendChild(table);
    var legend = el("p", "legend");
    legend.appendChild(el("span", "key-valid", "green")); legend.appendChild(document.createTextNode(" numbers: valid moves · "));
    legend.appendChild(el("span", "key-last", "blue")); legend.appendChild(document.createTextNode(" squares: the last move · a faint letter: the player it jumped"));
    wrap.appendChild(legend);
    return wrap;
  }

  // -- Othello: 8×8, row 8 at the top, the last move and its flips ---------------------------------
  function othello(b) {
    var wrap = el("div", "oth");
    var grid = el("div", "oth-grid");
    var flipped = {}, legal = {};
    b.flipped.forEach(function (s) { flipped[s] = true; });
    b.legal.forEach(function (s) { legal[s] = true; });
    grid.appendChild(el("span", "oth-label"));
    for (var c = 0; c < 8; c++) { grid.appendChild(el("span", "oth-label", "ABCDEFGH"[c])); }
    for (var row = 7; row >= 0; row--) {
      grid.appendChild(el("span", "oth-label", row + 1));
      for (var col = 0; col < 8; col++) {
        var sq = row * 8 + col, disc = b.cells[sq];
        var cell = el("span", "oth-cell");
        cell.dataset.square = "ABCDEFGH"[col] + (row + 1);
        cell.dataset.disc = disc === "." ? "" : disc;
        if (disc !== ".") {
          var d = el("span", "disc " + (disc === "B" ? "blue" : "orange"));
          if (flipped[sq]) { d.classList.add("flipped"); d.title = "flipped by the last move"; }
          cell.appendChild(d);
        } else if (legal[sq]) {
          cell.appendChild(el("span", "hint"));
        }
        if (b.last === sq) { cell.classList.add("last"); }
        grid.appendChild(cell);
      }
    }
    wrap.appendChild(grid);
    var counts = el("p", "oth-counts");
    counts.appendChild(el("span", "chip blue", fixed.sides[0] + " " + b.counts[0]));
    counts.appendChild(el("span", "chip orange", fixed.sides[1] + " " + b.counts[1]));
    if (b.passed) { counts.appendChild(el("span", "chip pass", "pass")); }
    wrap.appendChild(counts);
    return wrap;
  }

  // -- Robot Ludo: the ring, counter-clockwise from Red's home at the bottom left ------------------
  function ringShape(length) {
    var total = Math.floor(length / 2) + 2;
    var height = Math.min(11, Math.floor(total / 2) + 1);
    return [total - height, height];
  }
  function ringCells(length) {
    var shape = ringShape(length), width = shape[0], height = shape[1], cells = {}, sq = 0, i;
    for (i = 0; i < width; i++) { cells[sq++] = [i, height - 1]; }
    for (i = height - 2; i > 0; i--) { cells[sq++] = [width - 1, i]; }
    for (i = width - 1; i >= 0; i--) { cells[sq++] = [i, 0]; }
    for (i = 1; i < height - 1; i++) { cells[sq++] = [0, i]; }
    return cells;
  }
  function die(face, cls) {
    var d = el("span", "die" + (cls ? " " + cls : ""));
    var pips = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]}[face] || [];
    for (var i = 0; i < 9; i++) { d.appendChild(el("span", pips.indexOf(i) >= 0 ? "pip" : "nopip")); }
    d.dataset.face = face;
    d.setAttribute("aria-label", "a die showing " + face);
    return d;
  }
  function ludo(b) {
    var L = fixed.length, shape = ringShape(L), cells = ringCells(L);
    var wrap = el("div", "ludo");
    var ring = el("div", "ludo-ring");
    ring.style.gridTemplateColumns = "repeat(" + shape[0] + ", 3.6em)";
    ring.style.gridTemplateRows = "repeat(" + shape[1] + ", 2.7em)";
    var red = b.r, blue = b.b, safe = {};
    fixed.safe.forEach(function (s) { safe[s] = true; });
    // the last move: [side, from, to, cut, roll, kind] (kind: move, enter, home or pass)
    var last = b.l && {side: b.l[0], from: b.l[1], to: b.l[2], cut: b.l[3], roll: b.l[4], kind: b.l[5]};
    for (var sq = 0; sq < L; sq++) {
      var cell = el("div", "ludo-sq");
      cell.style.gridColumn = String(cells[sq][0] + 1);
      cell.style.gridRow = String(cells[sq][1] + 1);
      if (safe[sq]) { cell.classList.add("safe"); }
      if (sq === fixed.homes[0]) { cell.classList.add("home-red"); }
      if (sq === fixed.homes[1]) { cell.classList.add("home-blue"); }
      cell.appendChild(el("span", "ludo-num", sq));
      cell.dataset.square = sq;
      cell.dataset.red = red[sq];
      cell.dataset.blue = blue[sq];
      var stack = el("span", "stack");
      if (red[sq]) { stack.appendChild(el("span", "ctr red", red[sq] > 1 ? "R" + red[sq] : "R")); }
      if (blue[sq]) { stack.appendChild(el("span", "ctr blue", blue[sq] > 1 ? "B" + blue[sq] : "B")); }
      if (last && last.cut && last.to === sq) {
        var ghost = el("span", "ctr ghost " + (last.side === 0 ? "blue" : "red"), (last.side === 0 ? "b" : "r") + (last.cut > 1 ? last.cut : ""));
        ghost.title = "cut: sent back to the pen";
        stack.appendChild(ghost);
        cell.classList.add("cut");
      }
      cell.appendChild(stack);
      if (last && last.to === sq) { cell.classList.add("last"); }
      if (last && last.from === sq) { cell.classList.add("left"); }
      ring.appendChild(cell);
    }
    var middle = el("div", "ludo-middle");
    middle.style.gridColumn = "2 / " + shape[0];
    middle.style.gridRow = "2 / " + shape[1];
    [0, 1].forEach(function (side) {
      var line = el("div", "ludo-count " + (side === 0 ? "red" : "blue"));
      line.appendChild(el("b", null, fixed.sides[side]));
      line.appendChild(el("span", "pen", "pen " + b.p[side]));
      line.appendChild(el("span", "homecount", "⌂ " + b.h[side] + "/" + fixed.counters));
      line.dataset.pen = b.p[side];
      line.dataset.home = b.h[side];
      middle.appendChild(line);
    });
    var roll = el("div", "ludo-roll");
    if (b.d) {
      roll.appendChild(die(b.d, b.t === 0 ? "red" : "blue"));
      roll.appendChild(el("span", null, fixed.sides[b.t] + " rolled " + b.d));
    } else if (b.d === 0) {
      roll.appendChild(el("span", null, fixed.sides[b.t] + " to roll"));
    }
    middle.appendChild(roll);
    if (last) {
      var text = last.kind === "pass" ? "no move with a " + last.roll : last.kind === "enter" ? "entered at " + last.to
        : last.kind === "home" ? last.from + " → home" : last.from + " → " + last.to;
      var said = el("div", "ludo-last", "last: " + fixed.sides[last.side] + " " + text);
      if (last.cut) { said.appendChild(el("span", "cutnote", " ✂ cut " + last.cut)); }
      middle.appendChild(said);
    }
    ring.appendChild(middle);
    wrap.appendChild(ring);
    return wrap;
  }

  // -- Hog: the scores against the goal, the dice of each player's last turn -----------------------
  function hogTurn(turn) {
    var box = el("div", "hog-turn");
    if (!turn) { box.appendChild(el("span", "quiet", "no turn yet")); return box; }
    var dice = el("div", "hog-dice");
    if (turn.piggy) {
      dice.appendChild(el("span", "badge piggy", "Piggy Points"));
    } else if (turn.rolling) {
      dice.appendChild(el("span", "quiet", "rolling " + turn.n + (turn.n === 1 ? " die…" : " dice…")));
    } else {
      turn.dice.forEach(function (f) { dice.appendChild(die(f, f === 1 ? "sad" : "")); });
    }
    box.appendChild(dice);
    var line = el("div", "hog-points");
    if (!turn.rolling) { line.appendChild(el("b", null, "+" + turn.points)); }
    if (turn.sad) { line.appendChild(el("span", "badge sad", "Sow Sad")); }
    if (turn.boar) { line.appendChild(el("span", "badge boar", "More Boar: again!")); }
    box.appendChild(line);
    return box;
  }
  function hog(b) {
    var wrap = el("div", "hog");
    [0, 1].forEach(function (p) {
      var row = el("div", "hog-player side" + p + (b.player === p ? " to-move" : ""));
      var name = el("div", "hog-name");
      name.appendChild(el("b", null, fixed.sides[p]));
      var score = el("span", "hog-score", b.scores[p]);
      score.dataset.score = b.scores[p];
      name.appendChild(score);
      name.appendChild(el("span", "quiet", " / " + fixed.goal));
      row.appendChild(name);
      var bar = el("div", "hog-bar");
      var fill = el("span", "fill");
      fill.style.width = Math.min(100, 100 * b.scores[p] / fixed.goal) + "%";
      bar.appendChild(fill);
      row.appendChild(bar);
      var shown = b.turn && b.turn.player === p ? b.turn : b.turns[p];
      row.appendChild(hogTurn(shown));
      wrap.appendChild(row);
    });
    return wrap;
  }

  // -- Toothpick Takeaway: the sticks left, the last take faint ------------------------------------
  function toothpicks(b) {
    var wrap = el("div", "tp");
    var row = el("div", "tp-sticks");
    for (var i = 0; i < b.left + b.last; i++) {
      var stick = el("span", i < b.left ? "stick" : "stick gone");
      if (i >= b.left && b.by !== null) { stick.classList.add("by" + b.by); }
      row.appendChild(stick);
    }
    wrap.appendChild(row);
    var counts = el("p", "tp-counts");
    counts.appendChild(el("span", "chip", b.left + " left of " + fixed.start));
    counts.appendChild(el("span", "chip side0", fixed.sides[0] + " took " + b.taken[0]));
    counts.appendChild(el("span", "chip side1", fixed.sides[1] + " took " + b.taken[1]));
    wrap.appendChild(counts);
    return wrap;
  }

  var DRAW = {dfootball: dfootball, othello: othello, ludo: ludo, hog: hog, toothpicks: toothpicks};

  // the move list: "start", then a row a step (its number, who moved, the move)
  var moveItems = frames.map(function (frame) {
    var item = el("li", frame.index ? null : "start", frame.index ? null : "start");
    if (frame.index) {
      item.appendChild(el("span", "ply", frame.index));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(el("span", "who", frame.who));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(el("span", "mv", frame.move));
    }
    item.dataset.step = frame.index;
    return item;
  });
  if (movesEl) { movesEl.replaceChildren.apply(movesEl, moveItems); }

  var current = -1, said = -1;
  function lines(k) {
    var frame = frames[k];
    if (!frame.lines) { frame.lines = frame.say.map(function (line) { return el("li", null, line); }); }
    return frame.lines;
  }

  // -- the board drawn to fit its box: its font made smaller until the widest part fits ------------
  var WIDEST = ".df-board, .oth-grid, .ludo-ring", SMALLEST = 5;
  function fit() {
    boardEl.style.fontSize = "";
    var widest = boardEl.querySelector(WIDEST);
    if (!widest) { return; }
    var style = window.getComputedStyle(boardEl);
    var room = boardEl.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    var size = parseFloat(style.fontSize);
    for (var i = 0; i < 5 && widest.scrollWidth > room && size > SMALLEST; i++) {
      size = Math.max(SMALLEST, Math.floor(10 * size * room / widest.scrollWidth) / 10);
      boardEl.style.fontSize = size + "px";
    }
  }
  var fitting = false;
  window.addEventListener("resize", function () {
    if (fitting) { return; }
    fitting = true;
    window.requestAnimationFrame(function () { fitting = false; fit(); });
  });

  function show(target) {
    step = Math.max(0, Math.min(frames.length - 1, target));
    var frame = frames[step];
    var fitted = boardEl.firstChild !== null;
    boardEl.replaceChildren(DRAW[data.game](frame.board));
    if (!fitted) { fit(); }
    boardEl.dataset.step = step;
    statusEl.textContent = frame.status;
    stepEl.textContent = step + " / " + (frames.length - 1);
    if (moveItems[current]) { moveItems[current].classList.remove("current"); }
    current = step;
    moveItems[step].classList.add("current");
    if (moveItems[step] && movesEl.parentNode) {
      var box = movesEl, item = moveItems[step];
      if (item.offsetTop < box.scrollTop || item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = item.offsetTop - box.clientHeight / 2;
      }
    }
    // the commentary up to this step: each step's lines added or taken away, not all made again
    for (; said < step; said++) {
      lines(said + 1).forEach(function (line) { commentaryEl.appendChild(line); });
    }
    for (; said > step; said--) {
      lines(said).forEach(function (line) { line.remove(); });
    }
    commentaryEl.scrollTop = commentaryEl.scrollHeight;
    document.getElementById("back").disabled = step === 0;
    document.getElementById("first").disabled = step === 0;
    document.getElementById("on").disabled = step === frames.length - 1;
    document.getElementById("last").disabled = step === frames.length - 1;
  }

  // -- playing: a step every 1/speed seconds, until paused or at the end ---------------------------
  var timer = null;
  function playing() { return timer !== null; }
  function speed() { return Number(speedEl.value) || 2; }
  function schedule() { timer = window.setTimeout(tick, 1000 / speed()); }
  function tick() {
    show(step + 1);
    if (step >= frames.length - 1) { pause(); } else { schedule(); }
  }
  function mark() {
    playEl.textContent = playing() ? "❚❚ Pause" : "▶ Play";
    playEl.setAttribute("aria-pressed", playing() ? "true" : "false");
    playEl.title = playing() ? "Pause (Space)" : step >= frames.length - 1 ? "Play again from the start (Space)"
      : "Play the moves one after another (Space)";
  }
  function play() {
    if (playing() || frames.length < 2) { return; }
    if (step >= frames.length - 1) { show(0); }
    schedule();
    mark();
  }
  function pause() {
    if (timer !== null) { window.clearTimeout(timer); }
    timer = null;
    mark();
  }
  function toggle() { if (playing()) { pause(); } else { play(); } }
  function faster(by) {
    speedEl.selectedIndex = Math.max(0, Math.min(speedEl.options.length - 1, speedEl.selectedIndex + by));
    retime();
  }
  function retime() {
    if (playing()) { window.clearTimeout(timer); schedule(); }
  }
  function go(target) { pause(); show(target); }  // a step chosen by hand stops the playing

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("back").addEventListener("click", function () { go(step - 1); });
  document.getElementById("on").addEventListener("click", function () { go(step + 1); });
  document.getElementById("last").addEventListener("click", function () { go(frames.length - 1); });
  playEl.addEventListener("click", toggle);
  speedEl.addEventListener("change", retime);
  moveItems.forEach(function (item) {
    item.addEventListener("click", function () { go(Number(item.dataset.step)); });
  });
  function chosen(event) {
    // keys typed into the speed's list are its own
    var tag = event.target && event.target.tagName;
    return !(event.altKey || event.ctrlKey || event.metaKey) && tag !== "SELECT" && tag !== "INPUT" && tag !== "TEXTAREA";
  }
  document.addEventListener("keydown", function (event) {
    if (!chosen(event)) { return; }
    if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();  // not the page scrolled, nor a focused button pressed too
      if (!event.repeat) { toggle(); }
      return;
    }
    if (event.key === "+" || event.key === "=" || event.key === "-" || event.key === "_") {
      event.preventDefault();
      faster(event.key === "+" || event.key === "=" ? 1 : -1);
      return;
    }
    var to = {ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: frames.length - 1}[event.key];
    if (to === undefined) { return; }
    event.preventDefault();
    go(to);
  });
  document.addEventListener("keyup", function (event) {
    if ((event.key === " " || event.key === "Spacebar") && chosen(event)) { event.preventDefault(); }
  });
  show(0);
  mark();
}());
