// The live page: one EventSource per instance (this one, or those of ?instances=a,b), one series
// per instance and quantity in each chart. Each chart element carries data-samples (values
// received) and data-measured (false while no instance has its meter), which .ci/live-page-check.sh reads.
// With two instances, a panel above the charts gives the first's messages per second and core µs per
// message over the second's, over the seconds both reported in the window so far, with their spread.
(function () {
  'use strict';

  const WINDOW_SECONDS = 300;
  const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];
  const DASHES = [[], [8, 4], [2, 3]];
  const QUEUES = '{uri=~"/queues.*"}';

  // key: the field of the snapshot (LiveSnapshot.java); scale: to the chart's unit.
  const CHARTS = [
    { id: 'messages', title: 'Messages per second', quantities: [
      { key: 'pushedPerSecond', short: 'pushed', metric: 'rate(qs_messages_pushed_total)' },
      { key: 'deliveredPerSecond', short: 'delivered', metric: 'rate(qs_messages_delivered_total)' },
      { key: 'completedPerSecond', short: 'completed', metric: 'rate(qs_messages_completed_total)' }] },
    { id: 'latency', title: 'Request latency, ms', quantities: [
      { key: 'latencyP50Seconds', short: 'p50', scale: 1000,
        metric: 'histogram_quantile(0.5, rate(http_server_requests_seconds_bucket' + QUEUES + '))' },
      { key: 'latencyP95Seconds', short: 'p95', scale: 1000, metric: 'histogram_quantile(0.95, ...)' },
      { key: 'latencyP99Seconds', short: 'p99', scale: 1000, metric: 'histogram_quantile(0.99, ...)' }] },
    { id: 'core-share', title: "Core's share of request time, %", measured: 'coreMeasured', quantities: [
      { key: 'coreShare', scale: 100,
        metric: 'rate(qs_core_seconds_total) / rate(http_server_requests_seconds_sum' + QUEUES + ')' }] },
    { id: 'core-per-message', title: 'Core time per completed message, µs', measured: 'coreMeasured', quantities: [
      { key: 'coreMicrosPerMessage', metric: 'rate(qs_core_seconds_total) / rate(qs_messages_completed_total)' }] },
    { id: 'contention', title: 'Contention, seconds waited per second', measured: 'contentionMeasured', quantities: [
      { key: 'contentionSecondsPerSecond', metric: 'rate(qs_contention_seconds_total)' }] },
    { id: 'depth', title: 'Depth, messages', quantities: [
      { key: 'ready', short: 'ready', metric: 'qs_messages_ready' },
      { key: 'inflight', short: 'in flight', metric: 'qs_messages_inflight' }] },
    { id: 'refused', title: 'Refused pushes (429) per second', quantities: [
      { key: 'refusedPerSecond', metric: 'rate(qs_pushes_refused_total)' }] },
    { id: 'cpu', title: 'Process CPU, % of all cores', quantities: [
      { key: 'processCpuUsage', scale: 100, metric: 'process_cpu_usage' }] },
    { id: 'gc', title: 'GC pause, ms per second', quantities: [
      { key: 'gcPauseSecondsPerSecond', scale: 1000, metric: 'rate(jvm_gc_pause_seconds_sum)' }] },
  ];

  // Side by side: A ÷ B for each second both instances reported, grouped into blocks of
  // RATIO_BLOCK_SECONDS (neighbouring seconds are not independent; block means nearly are), the
  // ratio as the geometric mean of the blocks' ratios with a 95% t-interval on their logarithms,
  // and the spread of the per-second ratios (10th to 90th percentile).
  const RATIO_BLOCK_SECONDS = 10;
  // Student's t, 0.975 quantile, for 1 to 30 degrees of freedom (beyond: 1.96).
  const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
    2.045, 2.042];
  const RATIOS = [
    { key: 'completedPerSecond', title: 'messages/s', higher: ['faster', 'slower'] },
    { key: 'coreMicrosPerMessage', title: 'core µs per message', higher: ['costs more', 'costs less'] },
  ];

  // With bearer tokens configured (docs/security.md), the stream takes one in its query, since an
  // EventSource sends no header: open the page as /#token=<token>; it is kept for this tab only.
  const hashToken = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (hashToken) {
    sessionStorage.setItem('qs-token', hashToken);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  const token = sessionStorage.getItem('qs-token');
  const param = new URLSearchParams(window.location.search).get('instances');
  const urls = (param || '').split(',').map((url) => url.trim().replace(/\/+$/, '')).filter((url) => url);
  const instances = (urls.length ? urls : ['']).map((url, index) => ({
    url, index, label: null, bySecond: new Map(), item: null,
  }));
  const charts = CHARTS.map(createChart);
  const ratios = instances.length === 2 ? createRatios() : null;
  instances.forEach(connect);
  window.addEventListener('resize', () => charts.forEach((chart) => chart.plot.setSize(size(chart))));

  function createChart(def) {
    const element = document.createElement('section');
    element.className = 'chart';
    element.id = 'chart-' + def.id;
    element.dataset.samples = '0';
    element.dataset.measured = def.measured ? 'false' : 'true';
    const title = document.createElement('h2');
    title.textContent = def.title;
    element.appendChild(title);
    def.quantities.forEach((quantity) => {
      const metric = document.createElement('div');
      metric.className = 'metric';
      metric.textContent = (quantity.short ? quantity.short + ': ' : '') + quantity.metric;
      element.appendChild(metric);
    });
    const unmeasured = document.createElement('div');
    unmeasured.className = 'unmeasured';
    element.appendChild(unmeasured);
    document.getElementById('charts').appendChild(element);
    const chart = { def, element, unmeasured, series: [], samples: 0, notMeasuredBy: new Set() };
    chart.plot = new uPlot({
      ...size({ element }),
      series: [{}],
      scales: { x: { time: true } },
      axes: [{}, { size: 60, values: (u, splits) => splits.map((v) => (v == null ? '' : format(v))) }],
      legend: { live: true },
    }, [[]], element);
    return chart;
  }

  function size(chart) {
    return { width: Math.max(300, chart.element.clientWidth - 10), height: 200 };
  }

  function connect(instance) {
    const query = token ? '?access_token=' + encodeURIComponent(token) : '';
    const source = new EventSource(instance.url + '/live/events' + query);
    source.addEventListener('snapshot', (event) => receive(instance, JSON.parse(event.data)));
    source.onopen = () => status(instance, '');
    source.onerror = () => status(instance, 'disconnected, retrying');
  }

  function receive(instance, snapshot) {
    if (instance.label === null) {
      introduce(instance, snapshot);
    }
    const second = Math.round(snapshot.time / 1000);
    instance.bySecond.set(second, snapshot);
    for (const old of instance.bySecond.keys()) {
      if (old > second - WINDOW_SECONDS) {
        break;
      }
      instance.bySecond.delete(old);
    }
    charts.forEach((chart) => count(chart, instance, snapshot));
    scheduleDraw();
  }

  // The first snapshot names the instance: its legend, and its series in every chart.
  function introduce(instance, snapshot) {
    instance.label = snapshot.strategy + ' (' + snapshot.threads + ' threads)';
    const item = instanceItem(instance);
    item.dataset.strategy = snapshot.strategy;
    item.querySelector('.strategy').textContent = snapshot.strategy;
    item.querySelector('.details').textContent = ', ' + snapshot.threads + ' threads, ' + snapshot.jvm
      + (instance.url ? ', ' + instance.url : '');
    charts.forEach((chart) => chart.def.quantities.forEach((quantity, q) => {
      const label = instance.label + (chart.def.quantities.length > 1 ? ' ' + quantity.short : '');
      chart.series.push({ instance, quantity });
      chart.plot.addSeries({
        label, stroke: COLORS[instance.index % COLORS.length], dash: DASHES[q % DASHES.length],
        width: 1.5, spanGaps: true, value: (u, v) => (v == null ? '-' : format(v)),
      });
    }));
  }

  function count(chart, instance, snapshot) {
    if (chart.def.measured && !snapshot[chart.def.measured]) {
      chart.notMeasuredBy.add(instance.label);
    }
    else {
      chart.notMeasuredBy.delete(instance.label);
      if (chart.def.measured) {
        chart.element.dataset.measured = 'true';
      }
      if (chart.def.quantities.some((quantity) => snapshot[quantity.key] != null)) {
        chart.samples++;
        chart.element.dataset.samples = String(chart.samples);
      }
    }
    chart.unmeasured.textContent = chart.notMeasuredBy.size
      ? 'not measured on ' + [...chart.notMeasuredBy].join(', ') : '';
  }

  let drawPending = false;

  function scheduleDraw() {
    if (!drawPending) {
      drawPending = true;
      window.requestAnimationFrame(draw);
    }
  }

  function draw() {
    drawPending = false;
    const seconds = new Set();
    instances.forEach((instance) => instance.bySecond.forEach((_, second) => seconds.add(second)));
    const xs = [...seconds].sort((a, b) => a - b);
    charts.forEach((chart) => {
      const data = [xs];
      chart.series.forEach(({ instance, quantity }) => data.push(xs.map((second) => {
        const snapshot = instance.bySecond.get(second);
        const value = snapshot ? snapshot[quantity.key] : null;
        return value == null ? null : value * (quantity.scale || 1);
      })));
      chart.plot.setData(data);
    });
    if (ratios) {
      drawRatios(xs);
    }
  }

  function createRatios() {
    const element = document.createElement('section');
    element.id = 'ratios';
    element.className = 'ratios';
    element.dataset.seconds = '0';
    element.innerHTML = '<h2>Side by side: first ÷ second instance, over the window so far</h2>'
      + RATIOS.map((r) => '<div class="ratio" data-key="' + r.key + '"><span class="what"></span>'
        + '<span class="value">waiting for both</span></div>').join('')
      + '<div class="how">Per-second ratios in blocks of ' + RATIO_BLOCK_SECONDS + ' s: the geometric mean '
      + 'of the blocks with its 95% interval (t on their logarithms; at least 3 blocks), and the middle 80% '
      + 'of the per-second ratios. A difference is real where the interval leaves 1.</div>';
    document.getElementById('charts').before(element);
    return { element };
  }

  function drawRatios(xs) {
    const [a, b] = instances;
    RATIOS.forEach((def) => {
      const perSecond = [];
      xs.forEach((second) => {
        const x = a.bySecond.get(second);
        const y = b.bySecond.get(second);
        if (x && y && x[def.key] > 0 && y[def.key] > 0) {
          perSecond.push({ second, ratio: x[def.key] / y[def.key] });
        }
      });
      const row = ratios.element.querySelector('.ratio[data-key="' + def.key + '"]');
      row.querySelector('.what').textContent = (a.label || 'first') + ' ÷ ' + (b.label || 'second') + ', '
        + def.title + ': ';
      row.querySelector('.value').textContent = describe(perSecond, def);
      if (def.key === 'completedPerSecond') {
        ratios.element.dataset.seconds = String(perSecond.length);
      }
    });
  }

  function describe(perSecond, def) {
    if (!perSecond.length) {
      return 'no second with both yet';
    }
    const blocks = new Map();
    perSecond.forEach(({ second, ratio }) => {
      const block = Math.floor(second / RATIO_BLOCK_SECONDS);
      blocks.set(block, (blocks.get(block) || []).concat(Math.log(ratio)));
    });
    const logs = [...blocks.values()].map((values) => values.reduce((s, v) => s + v, 0) / values.length);
    const n = logs.length;
    const mean = logs.reduce((s, v) => s + v, 0) / n;
    const sorted = perSecond.map((p) => p.ratio).sort((x, y) => x - y);
    const spread = 'middle 80% ' + format(quantile(sorted, 0.1)) + '–' + format(quantile(sorted, 0.9))
      + ', ' + perSecond.length + ' s';
    if (n < 3) {
      return format(Math.exp(mean)) + ' (' + spread + '; interval after ' + 3 * RATIO_BLOCK_SECONDS + ' s)';
    }
    const sd = Math.sqrt(logs.reduce((s, v) => s + (v - mean) * (v - mean), 0) / (n - 1));
    const half = (n - 1 <= T975.length ? T975[n - 2] : 1.96) * sd / Math.sqrt(n);
    const low = Math.exp(mean - half);
    const high = Math.exp(mean + half);
    const verdict = low > 1 ? def.higher[0] : high < 1 ? def.higher[1] : 'not distinguishable';
    return format(Math.exp(mean)) + ' [' + format(low) + ', ' + format(high) + '] ' + verdict + ' (' + spread + ')';
  }

  function quantile(sorted, p) {
    const i = Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))));
    return sorted[i];
  }

  function format(value) {
    const magnitude = Math.abs(value);
    return magnitude >= 100 ? value.toFixed(0) : magnitude >= 1 ? value.toFixed(2) : value.toPrecision(3);
  }

  function instanceItem(instance) {
    if (!instance.item) {
      const item = document.createElement('li');
      item.innerHTML = '<span class="swatch"></span><span class="strategy"></span><span class="details"></span>'
        + '<span class="status"></span>';
      item.querySelector('.swatch').style.background = COLORS[instance.index % COLORS.length];
      item.querySelector('.strategy').textContent = instance.url || window.location.host;
      document.getElementById('instances').appendChild(item);
      instance.item = item;
    }
    return instance.item;
  }

  function status(instance, text) {
    instanceItem(instance).querySelector('.status').textContent = text;
  }
}());
