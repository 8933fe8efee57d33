import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = [
  'marketing',
  'auth',
  'wallet',
  'palm',
  'consent',
  'receipts',
  'merchant',
  'admin',
  'devices',
];
const WEB = './apps/web/src';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-named-as-default-member': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='parseFloat']",
          message: 'Money is integer paise: parse amounts with the contracts helpers, never parseFloat.',
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // A feature never reaches into another feature (bulletproof-react's unidirectional rule).
            ...FEATURES.map((feature) => ({
              target: `${WEB}/features/${feature}`,
              from: `${WEB}/features`,
              except: [`./${feature}`],
              message:
                'A feature must not import another feature: move the shared part to components/ or lib/.',
            })),
            // Shared code does not depend on features or the app shell; features do not depend on the app shell.
            {
              target: `${WEB}/features`,
              from: `${WEB}/app`,
              message: 'Features must not import the app shell.',
            },
            {
              target: [`${WEB}/components`, `${WEB}/lib`],
              from: [`${WEB}/features`, `${WEB}/app`],
              message: 'Shared code must not import features or the app shell.',
            },
            // Packages are framework-free and never reach into the apps.
            { target: './packages', from: './apps', message: 'Packages must not import the apps.' },
            {
              target: './apps/web',
              from: './apps/server',
              message: 'The web app must not import the server.',
            },
            {
              target: './apps/server',
              from: './apps/web',
              message: 'The server must not import the web app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-*', 'fastify', '@fastify/*'], message: 'Packages are framework-free.' },
          ],
        },
      ],
    },
  },
  {
    // The transparency log also runs in the browser (the /verify page): Node only in *-node.ts, the CLI and tests.
    files: ['packages/tlog/src/**/*.ts'],
    ignores: [
      'packages/tlog/src/**/*-node.ts',
      'packages/tlog/src/cli-*.ts',
      'packages/tlog/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-*', 'fastify', '@fastify/*'], message: 'Packages are framework-free.' },
            { group: ['node:*'], message: 'Browser code: put Node-only code in a *-node.ts file.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require', '__dirname', 'global'],
    },
  },
  {
    // Thin handlers (decision 023): a route parses, authorises, calls one use case and shapes the answer.
    // Queries live in repositories, never in a route file.
    files: ['apps/server/src/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['kysely', '**/db/schema', '**/db/database'],
              message: 'Routes do not query: call a use case, whose repository holds the query.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='parseFloat']",
          message: 'Money is integer paise: parse amounts with the contracts helpers, never parseFloat.',
        },
        {
          selector:
            'CallExpression > MemberExpression.callee[property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction|executeQuery)$/]',
          message: 'Routes do not query: call a use case, whose repository holds the query.',
        },
        {
          selector: "MemberExpression[object.name='app'][property.name='database']",
          message: 'Routes do not reach the database: call a use case with the repositories it needs.',
        },
      ],
    },
  },
  {
    // Use cases and repositories never see the web framework: plain data in, plain results or AppError out.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/app.ts',
      'apps/server/src/main.ts',
      'apps/server/src/plugins/**',
      'apps/server/src/routes/**',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify-*', '@fastify/*', '**/routes/**', '**/plugins/**'],
              message:
                'Domain modules never see Fastify, requests or replies: take plain data, return plain results or throw AppError.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Numbers, money, dates and times follow the page's language (issue 27): one place makes them.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/i18n-format.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@hasta/ledger/money',
              importNames: ['formatInr'],
              message:
                'Show money with formatMoney or useFormatters (lib/i18n-format.ts): it follows the language.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='parseFloat']",
          message: 'Money is integer paise: parse amounts with the contracts helpers, never parseFloat.',
        },
        {
          selector: "NewExpression[callee.object.name='Intl'], CallExpression[callee.object.name='Intl']",
          message:
            'Format with lib/i18n-format.ts (formatMoney, formatDateTime, useFormatters): it follows the language.',
        },
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]',
          message:
            'Format with lib/i18n-format.ts (formatMoney, formatDateTime, useFormatters): it follows the language.',
        },
      ],
    },
  },
);
