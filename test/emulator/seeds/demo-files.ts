// The demo's file trees, with real text so previews and downloads show something meaningful.
import { DAY, SEED_BASE, type FileSpec } from './common';

const README = `# Engineering

Welcome to the engineering group. This is where we keep the source snippets,
architecture notes and release history that the whole team relies on.

## Where things are

- \`src/\` holds shared TypeScript helpers.
- \`docs/\` holds architecture notes and diagrams.
- \`releases.csv\` lists every release with its date and owner.

## Conventions

1. Keep documents short and link to the source of truth.
2. Name files in lower case with dashes.
3. Lock a file while you rewrite it, and unlock it when you are done.
`;

const INDEX_TS = `// Shared helpers used by the portal integrations.
export interface Release {
  version: string;
  date: number;
  owner: string;
}

export function latest(releases: readonly Release[]): Release | undefined {
  return [...releases].sort((a, b) => b.date - a.date)[0];
}

export function formatVersion(r: Release): string {
  return \`v\${r.version} (\${new Date(r.date).toISOString().slice(0, 10)})\`;
}
`;

const FORMAT_TS = `export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return \`\${n.toFixed(i === 0 ? 0 : 1)} \${units[i]}\`;
}
`;

const ARCHITECTURE = `# Architecture

The portal is organised as organisations, groups and content.

| Layer | Responsibility |
|---|---|
| API | REST endpoints, versions 2 and 3 |
| Storage | files, versions and previews |
| Search | full-text index of pages and files |

Requests authenticate with OAuth bearer tokens. Tokens expire after thirty
minutes; clients refresh them or ask again with their client credentials.
`;

const CONFIG_JSON = `${JSON.stringify({ name: 'engineering-tools', retries: 3, timeoutMs: 15000, features: { preview: true, search: true } }, null, 2)}\n`;

const RELEASES_CSV = `version,date,owner
1.0.0,2024-03-01,Dana Demo
1.1.0,2024-05-14,Mia Member
1.2.0,2024-08-02,Tomas Twofactor
2.0.0,2024-11-20,Dana Demo
`;

const Q1_PLAN = `# Q1 campaign plan

- Launch the spring newsletter in week 3.
- Refresh the product page screenshots.
- Run two webinars: onboarding and advanced search.

Budget is tracked in budget.csv next to this file.
`;

const BUDGET_CSV = `item,amount,currency
Newsletter design,1200,EUR
Webinar tooling,450,EUR
Ads,3000,EUR
`;

const NOTES_TXT = `Marketing notes
===============
Brand colours are navy (#0b3d91) and white.
Use sentence case in headings.
Ask legal before quoting customers.
`;

const WELCOME = `# Welcome to Acme

This handbook explains how we work: where to find policies, how to book
leave, and who to ask. If anything is unclear, ask in the Discussions tab.
`;

const LEAVE = `# Leave policy

Everyone has 25 days of paid leave per year plus public holidays.
Book leave at least two weeks ahead for periods longer than three days.
`;

const SECURITY = `# Security policy

- Turn on two-factor authentication.
- Never share passwords; use application credentials for integrations.
- Report lost devices within 24 hours.
`;

const HOLIDAYS_JSON = `${JSON.stringify(
  [
    { date: '2025-01-01', name: "New Year's Day" },
    { date: '2025-04-18', name: 'Good Friday' },
    { date: '2025-12-25', name: 'Christmas Day' },
  ],
  null,
  2,
)}\n`;

const EVENTS_CSV = `date,event,place
2025-02-14,Team lunch,Canteen
2025-03-21,Spring quiz,Room 4
2025-06-20,Summer party,Roof terrace
`;

const SUMMARY = `# Research summary

We compared three indexing strategies on the 2024 corpus. The incremental
index halved rebuild time with no loss of recall. Details are in data/.
`;

const RESULTS_CSV = `strategy,rebuild_seconds,recall
full,812,0.97
incremental,401,0.97
sampled,122,0.88
`;

const SAMPLES_JSON = `${JSON.stringify(
  {
    samples: [
      { id: 1, value: 0.42 },
      { id: 2, value: 0.57 },
      { id: 3, value: 0.61 },
    ],
  },
  null,
  2,
)}\n`;

const NOTEBOOK = `Lab notebook
2025-01-06 Set up the benchmark machine.
2025-01-08 First full index run: 812 s.
2025-01-10 Incremental run: 401 s.
`;

const ANALYSIS_TS = `import { readFileSync } from 'node:fs';

const rows = readFileSync('results.csv', 'utf8').trim().split('\\n').slice(1);
for (const row of rows) {
  const [strategy, seconds, recall] = row.split(',');
  console.log(\`\${strategy}: \${seconds}s, recall \${recall}\`);
}
`;

const DEPLOY = `# Deploy runbook

1. Announce the window in the operations chat.
2. Drain the workers.
3. Deploy, then watch the error rate for 15 minutes.
4. Roll back if the error rate doubles.
`;

const ONCALL = `# On-call

The on-call engineer answers pages within 15 minutes, day and night.
Hand over every Monday at 10:00 with a short written summary.
`;

const INVENTORY_CSV = `asset,owner,location
Laptop 0141,Dana Demo,London
Laptop 0142,Mia Member,Leeds
Server rack A,Operations,Data centre 2
`;

const OLD_NOTES = `Archived project notes. Kept for reference only.\n`;

const m = (days: number): number => SEED_BASE - days * DAY;

/** Group name -> tree. `lockerId` of 0 is replaced by the demo user's id by the seed. */
export function demoTrees(lockerId: number): Record<string, FileSpec[]> {
  return {
    engineering: [
      {
        name: 'README.md',
        text: README,
        description: 'Start here',
        tags: 'docs,onboarding',
        versions: 3,
        memberPermission: 8,
        lastModified: m(2),
      },
      {
        name: 'src',
        children: [
          { name: 'index.ts', text: INDEX_TS, versions: 5, memberPermission: 16, lastModified: m(1) },
          {
            name: 'utils',
            children: [
              {
                name: 'format.ts',
                text: FORMAT_TS,
                versions: 2,
                lastModified: m(12),
                locked: { byUserId: lockerId, at: m(1) },
              },
            ],
          },
        ],
      },
      {
        name: 'docs',
        children: [
          { name: 'architecture.md', text: ARCHITECTURE, tags: 'architecture', lastModified: m(20) },
          {
            name: 'diagrams',
            children: [
              {
                name: 'overview.png',
                size: 2048,
                description: 'System overview diagram',
                memberPermission: 2,
                lastModified: m(25),
              },
            ],
          },
        ],
      },
      { name: 'config.json', text: CONFIG_JSON, memberPermission: 1, lastModified: m(40) },
      { name: 'releases.csv', text: RELEASES_CSV, sharing: 'MEMBERS', lastModified: m(3) },
    ],
    marketing: [
      {
        name: 'brand',
        children: [
          { name: 'logo.png', size: 4096, memberPermission: 2, lastModified: m(60) },
          {
            name: 'guidelines.pdf',
            size: 12_288,
            description: 'Brand guidelines 2025',
            tags: 'brand',
            lastModified: m(45),
          },
        ],
      },
      {
        name: 'campaigns',
        children: [
          {
            name: '2025',
            children: [
              { name: 'q1-plan.md', text: Q1_PLAN, versions: 2, lastModified: m(6) },
              { name: 'budget.csv', text: BUDGET_CSV, memberPermission: 8, lastModified: m(6) },
            ],
          },
        ],
      },
      { name: 'notes.txt', text: NOTES_TXT, lastModified: m(15) },
    ],
    handbook: [
      { name: 'welcome.md', text: WELCOME, memberPermission: 1, lastModified: m(90) },
      {
        name: 'policies',
        children: [
          { name: 'leave.md', text: LEAVE, lastModified: m(80) },
          { name: 'security.md', text: SECURITY, tags: 'security,2fa', lastModified: m(30) },
          {
            name: 'forms',
            children: [{ name: 'expense-form.pdf', size: 8192, memberPermission: 2, lastModified: m(100) }],
          },
        ],
      },
      { name: 'holidays.json', text: HOLIDAYS_JSON, lastModified: m(70) },
    ],
    social: [
      { name: 'events.csv', text: EVENTS_CSV, lastModified: m(4) },
      {
        name: 'photos',
        children: [
          { name: 'team.png', size: 30_000, lastModified: m(50) },
          { name: 'party.png', size: 25_000, lastModified: m(35) },
        ],
      },
    ],
    research: [
      { name: 'papers', children: [{ name: 'summary.md', text: SUMMARY, versions: 4, lastModified: m(5) }] },
      {
        name: 'data',
        children: [
          { name: 'results.csv', text: RESULTS_CSV, lastModified: m(8) },
          { name: 'raw', children: [{ name: 'samples.json', text: SAMPLES_JSON, lastModified: m(9) }] },
        ],
      },
      { name: 'notebook.txt', text: NOTEBOOK, lastModified: m(7) },
      { name: 'analysis.ts', text: ANALYSIS_TS, lastModified: m(7) },
    ],
    operations: [
      {
        name: 'runbooks',
        children: [
          { name: 'deploy.md', text: DEPLOY, memberPermission: 16, lastModified: m(11) },
          { name: 'oncall.md', text: ONCALL, lastModified: m(13) },
        ],
      },
      { name: 'inventory.csv', text: INVENTORY_CSV, lastModified: m(17) },
    ],
    'old-projects': [{ name: 'notes.txt', text: OLD_NOTES, lastModified: m(300) }],
  };
}
