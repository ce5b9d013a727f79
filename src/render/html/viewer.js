// Arbiter replay viewer: rebuilds every frame from the compact steps once, then shows one step in one
// view at a time. Steps: buttons, the slider, arrow keys, Home and End; #step=N in the address opens
// the page at step N. With #selftest in the address
// the page steps through itself and writes what it saw into #selftest (the browser tests read it).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('data').textContent);
  var steps = data.steps;
  var nviews = data.views.length;
  var colours = 6;

  // frames[v][k]: {c: [[text, owner, tint], ...by cell], p: [player lines]}
  var frames = [];
  for (var v = 0; v < nviews; v++) frames.push([]);
  for (var k = 0; k < steps.length; k++) {
    for (v = 0; v < nviews; v++) {
      var enc = steps[k].v[v];
      if (enc === 0) {
        frames[v][k] = frames[0][k];
        continue;
      }
      var prev = k > 0 ? frames[v][k - 1] : null;
      var cells = prev ? prev.c.slice() : new Array(data.cells);
      for (var i = 0; i < enc.c.length; i++) {
        var d = enc.c[i];
        cells[d[0]] = [d[1], d[2], d[3]];
      }
      frames[v][k] = { c: cells, p: enc.p !== undefined ? enc.p : (prev ? prev.p : []) };
    }
  }

  var groups = document.querySelectorAll('#cells > g.cell');
  var shapes = [], labels = [];
  for (i = 0; i < groups.length; i++) {
    shapes.push(groups[i].querySelector('.shape'));
    labels.push(groups[i].querySelector('.label'));
  }
  var $ = function (id) { return document.getElementById(id); };
  var slider = $('slider');
  var seat = function (prefix, s) { return prefix + (s < 0 ? 'n' : String(s % colours)); };
  var current = { step: -1, view: 0 };

  function text(el, value) {
    if (el.textContent !== value) el.textContent = value;
  }

  function list(el, items, build) {
    el.textContent = '';
    for (var j = 0; j < items.length; j++) el.appendChild(build(items[j], j));
  }

  function show(step, view) {
    step = Math.max(0, Math.min(steps.length - 1, step));
    view = Math.max(0, Math.min(nviews - 1, view));
    var f = frames[view][step];
    for (var c = 0; c < shapes.length; c++) {
      var cell = f.c[c];
      if (!cell) continue;
      text(labels[c], cell[0]);
      var want = 'shape ' + seat('o', cell[1]);
      if (shapes[c].getAttribute('class') !== want) shapes[c].setAttribute('class', want);
      var tint = 'label ' + seat('t', cell[2]);
      if (labels[c].getAttribute('class') !== tint) labels[c].setAttribute('class', tint);
    }
    var s = steps[step];
    text($('status'), s.s);
    list($('players'), f.p, function (line, p) {
      var li = document.createElement('li');
      var sw = document.createElement('span');
      sw.className = 'swatch ' + seat('s', p);
      li.appendChild(sw);
      li.appendChild(document.createTextNode((data.marks[p] || '') + ' ' + line));
      return li;
    });
    text($('did'), s.who === null ? 'The start position.' : s.who + ': ' + (s.a.length ? s.a.join('; ') : 'handed in nothing'));
    list($('events'), s.e, function (line) {
      var li = document.createElement('li');
      li.textContent = line;
      return li;
    });
    text($('stepname'), step === 0 ? 'start (step 0 of ' + (steps.length - 1) + ')' : 'step ' + step + ' of ' + (steps.length - 1));
    slider.value = String(step);
    $('first').disabled = $('prev').disabled = step === 0;
    $('last').disabled = $('next').disabled = step === steps.length - 1;
    var buttons = document.querySelectorAll('#views button');
    for (var b = 0; b < buttons.length; b++) {
      buttons[b].setAttribute('aria-pressed', String(Number(buttons[b].getAttribute('data-view')) === view));
    }
    current.step = step;
    current.view = view;
  }

  $('first').addEventListener('click', function () { show(0, current.view); });
  $('prev').addEventListener('click', function () { show(current.step - 1, current.view); });
  $('next').addEventListener('click', function () { show(current.step + 1, current.view); });
  $('last').addEventListener('click', function () { show(steps.length - 1, current.view); });
  slider.addEventListener('input', function () { show(Number(slider.value), current.view); });
  var viewButtons = document.querySelectorAll('#views button');
  for (var b = 0; b < viewButtons.length; b++) {
    viewButtons[b].addEventListener('click', function (e) {
      show(current.step, Number(e.currentTarget.getAttribute('data-view')));
    });
  }
  document.addEventListener('keydown', function (e) {
    // The slider moves itself on arrow keys; elsewhere the page does.
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowLeft: current.step - 1, ArrowRight: current.step + 1, Home: 0, End: steps.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to, current.view);
  });
  // #step=N (or #step=last) opens the page at that step.
  var wanted = /^#step=(\d+|last)$/.exec(location.hash);
  show(wanted ? (wanted[1] === 'last' ? steps.length - 1 : Number(wanted[1])) : 0, 0);
  // Milliseconds from navigation to the first step drawn (frames rebuilt, board shown).
  var readyMs = Math.round(performance.now());

  if (location.hash === '#selftest') {
    var signature = function () {
      var parts = [];
      for (var c = 0; c < shapes.length; c++) parts.push(labels[c].textContent + '/' + shapes[c].getAttribute('class'));
      return parts.join(';');
    };
    var key = function (name) {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
    };
    var out = { cells: groups.length, expected_cells: data.cells, steps: steps.length, views: nviews };
    show(0, 0);
    var start = signature();
    $('next').click();
    out.after_next = current.step;
    out.next_changed_board = signature() !== start;
    key('ArrowRight');
    out.after_arrow = current.step;
    key('ArrowLeft');
    out.after_arrow_back = current.step;
    slider.value = '1';
    slider.dispatchEvent(new Event('input'));
    out.after_slider = current.step;
    key('End');
    out.after_end = current.step;
    out.last_status = $('status').textContent;
    out.result = $('result').textContent;
    out.last_events = $('events').children.length;
    var whole = signature();
    out.views_equal_whole = [];
    for (var w = 1; w < nviews; w++) {
      viewButtons[w].click();
      out.views_equal_whole.push(signature() === whole);
    }
    viewButtons[0].click();
    out.errors = window.arbiterErrors.slice();
    out.ready_ms = readyMs;
    out.ms = Math.round(performance.now());
    var box = $('selftest');
    box.textContent = JSON.stringify(out);
    box.hidden = false;
  }
})();
