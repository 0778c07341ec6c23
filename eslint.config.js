import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerConfigs } from './eslint.layers.js';

export default tseslint.config(
  {
    ignores: [
      '**/jest.config.js',
      'jest.preset.js',
      'eslint.config.js',
      'eslint.layers.js',
      '**/dist/**',
      '**/node_modules/**',
      '**/src/generated/**',
      // Jest's coverage reports (root and per workspace), not every folder named coverage:
      // services/adoption/src/domain/coverage is source.
      'coverage/**',
      '*/*/coverage/**',
      '.infra/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins and shutdown steps are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
      // Fastify decorators (app.authenticate) are passed as hooks by design and bound by Fastify.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read the environment only in config/main.',
        },
      ],
    },
  },
  {
    files: [
      '**/src/main.ts',
      '**/src/config.ts',
      '**/test/**',
      '**/*.test.ts',
      'packages/testkit/**',
      'packages/config/**',
      'tools/**',
      'bench/**',
      'scripts/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Which layer may import which (issue #12): eslint.layers.js.
  ...layerConfigs,
);
