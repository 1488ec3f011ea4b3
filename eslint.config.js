import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/test-results/**', 'e2e/screenshots/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The console takes only types from the contract's main entry; its values come from
    // '@vigil/contract/client', which carries no schema library into the browser.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@vigil/contract',
              allowTypeImports: true,
              message:
                "Import values from '@vigil/contract/client'; the main entry brings zod and every schema into the browser.",
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by both apps and must not reach into either.
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@vigil/server', '@vigil/web'] }],
    },
  },
  {
    // Routes are HTTP only: SQL lives in repositories, transactions and audit records in services.
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/sql', '**/db/bulk', '**/db/copy'],
              message: 'Route files do not build SQL: call a service, whose repository holds the SQL.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tenant filtering is written in one place: tenantCondition and the scope helpers of http/tenancy.ts.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/http/tenancy.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TemplateElement[value.raw=/company_id\\s*(=\\s*ANY|IN)\\s*\\(/i]',
          message: 'Tenant filtering is written only by tenantCondition (http/tenancy.ts).',
        },
        {
          selector: "MemberExpression[property.name='companies'][object.name='scope']",
          message: 'Read a tenant scope only through http/tenancy.ts (tenantCondition, inScope, seesAllCompanies).',
        },
        {
          selector: "MemberExpression[property.name='companies'][object.property.name='scope']",
          message: 'Read a tenant scope only through http/tenancy.ts (tenantCondition, inScope, seesAllCompanies).',
        },
      ],
    },
  },
  {
    // A file does one job; past 600 lines it does several.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/fixtures/**'],
    rules: { 'max-lines': ['error', { max: 600 }] },
  },
);
