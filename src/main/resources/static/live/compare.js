// The live page's Compare section: choose 2 to 4 strategies (the first chosen is the baseline) and a
// workload, start a comparison in the service (POST /compare: one child JVM per strategy, each loaded
// in turn, in an order shuffled per round), watch it (GET /compare once a second) and read the
// ranking: each strategy's messages/s and CPU per message over the baseline's with a 95% interval
// and a verdict, and the command that repeats the run. The section carries data-state (idle, starting,
// running, finished, cancelled, failed), which .ci/tools/compare-check.mjs reads.
(function () {
  'use strict';

  const section = document.getElementById('compare');
  if (!section) {
    return;
  }
  const RUNNING = new Set(['starting', 'running']);
  let chosen = [];
  let polling = null;

  section.dataset.state = 'idle';
  section.innerHTML = `
    <h2>Compare strategies</h2>
    <p class="hint">Starts one service per strategy from this service's jar (child JVMs on free ports of
      127.0.0.1), loads each in turn with the same closed-loop push, poll and complete cycles, one warm-up round
      and then counted rounds, in an order shuffled per round from a recorded seed. Each strategy's messages/s and
      CPU per message are set over the <b>first chosen</b> (the baseline) round by round: the geometric mean of
      the rounds' ratios with a 95% t-interval on their logarithms. One comparison at a time, at most 90 s of
      load.</p>
    <form id="compare-form">
      <fieldset><legend>Strategies (2 to 4, in the order chosen)</legend><div class="choices"></div></fieldset>
      <div class="settings">
        <label>workload <select name="workload"></select></label>
        <label>rounds <input name="rounds" type="number"></label>
        <label>window s <input name="windowSeconds" type="number"></label>
        <label>seed <input name="seed" type="number" placeholder="random"></label>
        <span class="load"></span>
        <button type="submit" id="compare-start">Start</button>
        <button type="button" id="compare-cancel" disabled>Cancel</button>
      </div>
    </form>
    <div class="error" id="compare-error" role="alert"></div>
    <div class="status" id="compare-status"></div>
    <table id="compare-ranking" hidden>
      <thead><tr><th class="n">#</th><th>strategy</th><th class="n">messages/s</th><th class="n">× baseline [95%]</th>
        <th>verdict</th><th class="n">CPU µs/message</th><th class="n">× baseline [95%]</th><th>verdict</th>
        <th class="n">rounds</th></tr></thead>
      <tbody></tbody>
    </table>
    <div id="compare-rerun" hidden><div class="how">Run it again from a shell (same strategies, workload, rounds
      and seed; the service must run from its jar):</div><pre id="compare-command"></pre></div>
    <p class="how">Verdicts: <em>faster</em> / <em>slower</em> where the interval lies wholly above / below 1;
      <em>equivalent within ±5%</em> where it holds 1 and lies inside [0.95, 1.05]; otherwise
      <em>undetermined</em> (more rounds or longer windows narrow it).</p>`;
  const form = section.querySelector('#compare-form');
  const error = section.querySelector('#compare-error');
  const status = section.querySelector('#compare-status');
  const cancel = section.querySelector('#compare-cancel');
  let caps = null;

  form.addEventListener('submit', (event) => { event.preventDefault(); start(); });
  form.addEventListener('input', showLoad);
  cancel.addEventListener('click', () => request('DELETE', '/compare').then(poll, showError));

  request('GET', '/compare/strategies').then((choices) => {
    caps = choices.caps;
    const boxes = section.querySelector('.choices');
    choices.strategies.forEach((strategy) => {
      const label = document.createElement('label');
      label.innerHTML = '<input type="checkbox"> <span class="order"></span><span class="name"></span>';
      const box = label.querySelector('input');
      box.value = strategy.profile;
      box.disabled = !strategy.available;
      label.title = strategy.available ? '' : 'needs a Redis server, which a comparison does not start';
      label.querySelector('.name').textContent = strategy.profile;
      box.addEventListener('change', () => {
        chosen = chosen.filter((profile) => profile !== box.value);
        if (box.checked) {
          chosen.push(box.value);
        }
        numberChoices();
      });
      boxes.appendChild(label);
    });
    const workload = form.elements.workload;
    choices.workloads.forEach((w) => {
      const option = new Option(w.id + ': ' + w.description, w.id);
      workload.add(option);
    });
    workload.value = choices.defaults.workload;
    setNumber('rounds', choices.defaults.rounds, caps.minRounds, caps.maxRounds);
    setNumber('windowSeconds', choices.defaults.windowSeconds, caps.minWindowSeconds, caps.maxWindowSeconds);
    if (choices.unavailable) {
      error.textContent = choices.unavailable;
      section.querySelector('#compare-start').disabled = true;
    }
    showLoad();
    poll();
  }, showError);

  function setNumber(name, value, min, max) {
    const input = form.elements[name];
    input.value = value;
    input.min = min;
    input.max = max;
  }

  function numberChoices() {
    section.querySelectorAll('.choices label').forEach((label) => {
      const index = chosen.indexOf(label.querySelector('input').value);
      label.querySelector('.order').textContent = index < 0 ? '' : index === 0 ? 'base' : String(index + 1);
    });
    showLoad();
  }

  function showLoad() {
    const seconds = (Number(form.elements.rounds.value) + 1) * Math.max(chosen.length, 2)
      * Number(form.elements.windowSeconds.value);
    section.querySelector('.load').textContent = caps
      ? `${seconds} s of load (at most ${caps.maxLoadSeconds}), plus starting the services` : '';
  }

  function start() {
    error.textContent = '';
    const body = {
      strategies: chosen,
      workload: form.elements.workload.value,
      rounds: Number(form.elements.rounds.value),
      windowSeconds: Number(form.elements.windowSeconds.value),
    };
    if (form.elements.seed.value !== '') {
      body.seed = Number(form.elements.seed.value);
    }
    request('POST', '/compare', body).then(show, showError);
  }

  function poll() {
    request('GET', '/compare').then(show, showError);
  }

  function show(comparison) {
    section.dataset.state = comparison.state;
    const running = RUNNING.has(comparison.state);
    cancel.disabled = !running;
    section.querySelector('#compare-start').disabled = running;
    clearTimeout(polling);
    if (running) {
      polling = setTimeout(poll, 1000);
    }
    if (comparison.state === 'idle') {
      status.textContent = 'No comparison has run yet.';
      return;
    }
    const request = comparison.request;
    const progress = `<progress max="${comparison.windowsTotal}" value="${comparison.windowsDone}"></progress>`;
    status.innerHTML = `${progress} <b></b>: <span class="phase"></span>, ${comparison.windowsDone} of `
      + `${comparison.windowsTotal} windows, ${comparison.elapsedSeconds.toFixed(0)} s `
      + `<span class="what"></span>`;
    status.querySelector('b').textContent = 'comparison ' + comparison.id + ' ' + comparison.state;
    status.querySelector('.phase').textContent = comparison.phase;
    status.querySelector('.what').textContent = `(${request.strategies.join(' vs ')}, ${request.workload}, `
      + `${request.rounds} rounds of ${request.windowSeconds} s, seed ${request.seed})`;
    if (comparison.error) {
      error.textContent = comparison.error;
    }
    showRanking(comparison.ranking);
    section.querySelector('#compare-rerun').hidden = !comparison.command;
    section.querySelector('#compare-command').textContent = comparison.command || '';
  }

  function showRanking(ranking) {
    const table = section.querySelector('#compare-ranking');
    table.hidden = ranking.length === 0;
    const body = table.querySelector('tbody');
    body.replaceChildren();
    ranking.forEach((row) => {
      const tr = document.createElement('tr');
      tr.dataset.strategy = row.strategy;
      tr.dataset.verdict = row.verdict;
      [
        [String(row.rank), 'n'],
        [row.strategy + (row.baseline ? ' (baseline)' : ''), ''],
        [number(row.messagesPerSecond), 'n'],
        [ratio(row.ratio, row.low, row.high, row.baseline), 'n'],
        [row.verdict, verdictClass(row.verdict)],
        [number(row.cpuMicrosPerMessage), 'n'],
        [ratio(row.cpuRatio, row.cpuLow, row.cpuHigh, row.baseline), 'n'],
        [row.cpuVerdict, verdictClass(row.cpuVerdict)],
        [String(row.rounds), 'n'],
      ].forEach(([text, className]) => {
        const td = document.createElement('td');
        td.textContent = text;
        td.className = className;
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
  }

  function verdictClass(verdict) {
    return 'verdict-' + (verdict || '').split(' ').slice(0, verdict && verdict.startsWith('cost') ? 3 : 1)
      .join('-').toLowerCase();
  }

  function ratio(value, low, high, baseline) {
    if (baseline) {
      return '1';
    }
    if (value == null) {
      return '–';
    }
    return low == null ? value.toFixed(3) : `${value.toFixed(3)} [${low.toFixed(3)}, ${high.toFixed(3)}]`;
  }

  function number(value) {
    return value == null ? '–' : value >= 100 ? value.toFixed(0) : value.toPrecision(3);
  }

  function showError(problem) {
    error.textContent = problem.message;
  }

  function request(method, path, body) {
    const headers = { Accept: 'application/json' };
    const token = sessionStorage.getItem('qs-token');
    if (token) {
      headers.Authorization = 'Bearer ' + token;
    }
    if (body) {
      headers['Content-Type'] = 'application/json';
    }
    return fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined }).then((response) =>
      response.json().catch(() => ({})).then((json) => {
        if (!response.ok) {
          throw new Error(json.detail || json.title || `${method} ${path} answered ${response.status}`);
        }
        return json;
      }));
  }
}());
