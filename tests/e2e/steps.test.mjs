// The steps panel's per-step details: picking a step shows that step's idle time per stream, top
// kernels, launches, collectives and memory, and every number on screen is the CLI summary's value
// for that step (steps[i].sections), in the summary's row order.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openViaInput, cliSummary, trace } from './helpers.mjs';

const NCCL = trace('hta/tests/data/nccl_parser_config/nccl_data.json.gz'); // 3 steps, NCCL collectives
const DF = trace('hta/tests/data/df_index_resolver/df_index_resolver.json.gz'); // 5 steps, [memory] samples
const CPU_ONLY = trace('hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz');

let s;
before(async () => {
  s = await start();
});
after(async () => {
  await s?.close();
});

// The value at a dotted summary path, undefined when any part is missing.
const at = (obj, path) =>
  path.split('.').reduce((v, p) => (v !== null && typeof v === 'object' ? v[p] : undefined), obj);

// What the detail panel shows now: its step, the facts with their summary paths, and each table.
function shown(page) {
  return page.$eval('[data-section="step-detail"] .step-detail-body', (body) => ({
    step: body.dataset.step,
    facts: [...body.querySelectorAll('[data-key]')].map((e) => ({
      key: e.dataset.key,
      raw: e.dataset.raw ?? null,
      text: e.textContent,
    })),
    tables: Object.fromEntries(
      [...body.querySelectorAll('[data-table]')].map((t) => [
        t.dataset.table,
        {
          keys: [...t.querySelectorAll('thead th[data-key]')].map((th) => th.dataset.key),
          rows: [...t.querySelectorAll('tbody tr')].map((tr) =>
            [...tr.querySelectorAll('td')].map((td) => td.dataset.raw ?? null)
          ),
        },
      ])
    ),
    text: body.textContent,
  }));
}

function checkTable(table, rows, label) {
  assert.ok(table, `${label} table shown`);
  assert.equal(table.rows.length, rows.length, `${label} rows`);
  let n = 0;
  table.rows.forEach((cells, i) =>
    table.keys.forEach((k, j) => {
      if (cells[j] === null) return; // text cells
      const v = at(rows[i], k);
      assert.equal(cells[j], v === null || v === undefined ? 'null' : String(v), `${label}[${i}].${k}`);
      n++;
    })
  );
  return n;
}

// Picks every step in the step selector and compares everything shown with the CLI's details of that step.
async function checkEveryStep(path) {
  const { summary, error } = await openViaInput(s.page, [path]);
  assert.equal(error, null);
  const cli = cliSummary([path]);
  assert.deepEqual(summary, cli);
  const steps = cli.files[0].steps.filter((st) => st.sections);
  assert.ok(steps.length > 0);
  const options = await s.page.$$eval('[data-section="step-detail"] select.step-select option', (els) =>
    els.map((e) => e.dataset.step)
  );
  assert.deepEqual(
    options,
    steps.map((st) => String(st.number))
  );
  let checked = 0;
  for (const st of steps) {
    await s.page.selectOption('[data-section="step-detail"] select.step-select', { index: steps.indexOf(st) });
    const v = await shown(s.page);
    assert.equal(v.step, String(st.number));
    const d = st.sections;
    for (const f of v.facts) {
      if (f.raw === null) continue;
      assert.equal(f.raw, String(at(d, f.key)), `step ${st.number} ${f.key} shown as ${f.text}`);
      checked++;
    }
    // The headline numbers of each section are among them.
    const keys = new Set(v.facts.map((f) => f.key));
    for (const k of [
      'kernels.count',
      'kernels.total_ns',
      'launches.count',
      'launches.delay.p50_ns',
      'launches.host_syncs.count',
    ])
      assert.ok(keys.has(k), `${k} shown`);
    checked += checkTable(v.tables.step_kernels, d.kernels.top, `step ${st.number} kernels`);
    const idleRows = d.idle.streams.map((x) => ({
      ops: x.ops,
      idle_ns: x.idle_ns,
      host_wait_ns: x.categories.host_wait.ns,
      kernel_wait_ns: x.categories.kernel_wait.ns,
      other_ns: x.categories.other.ns,
      gaps: x.categories.host_wait.count + x.categories.kernel_wait.count + x.categories.other.count,
    }));
    checked += checkTable(v.tables.step_idle, idleRows, `step ${st.number} idle`);
    if (d.collectives)
      checked += checkTable(v.tables.step_collectives, d.collectives.by_type, `step ${st.number} collectives`);
    checked += checkTable(v.tables.step_operators, d.operators.top, `step ${st.number} operators`);
    // Steps differ: the panel really switched (the first step's kernel total is not on every step).
    assert.ok(v.text.includes(`Step ${st.number}:`));
  }
  return { cli, checked };
}

test('nccl_data: every step picked shows its own idle, kernels, launches and collectives from the summary', async () => {
  const { cli, checked } = await checkEveryStep(NCCL);
  assert.ok(checked > 100, `checked ${checked} numbers`);
  const totals = cli.files[0].steps.map((st) => st.sections.kernels.total_ns);
  assert.ok(new Set(totals).size > 1, 'steps have different kernel totals');
  // Collectives are shown for each step: NCCL all-reduce in every step of this DDP run.
  for (const st of cli.files[0].steps) assert.ok(st.sections.collectives.by_type.some((t) => t.type === 'allreduce'));
});

test('df_index_resolver: memory peak per step matches the summary', async () => {
  const { cli, checked } = await checkEveryStep(DF);
  assert.ok(checked > 100);
  const last = cli.files[0].steps.at(-1);
  const v = await shown(s.page); // the last step picked is on screen
  assert.equal(v.step, String(last.number));
  const mem = v.facts.filter((f) => f.key.startsWith('memory.'));
  assert.ok(mem.length > 0, 'memory peaks shown');
  for (const f of mem) assert.equal(f.raw, String(at(last.sections, f.key)));
});

test('CPU-only trace: its step has no GPU sections, and the panel says so', async () => {
  const { summary } = await openViaInput(s.page, [CPU_ONLY]);
  assert.equal(summary.files[0].steps.length, 1);
  const v = await shown(s.page);
  assert.match(v.text, /no GPU work/);
  // Its one cpu_op lies outside the step: the operators section is there, empty, and not drawn.
  assert.equal(summary.files[0].steps[0].sections.operators.distinct_operators, 0);
  assert.deepEqual(Object.keys(v.tables), []);
  assert.deepEqual(s.pageErrors, []);
});
