// ESLint's recommended rules over the verifier's modules (browser code) and their tests
// (Node's built-in test runner). Run from verifier/: npx eslint src test
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  // The Apps Script file's modules, linted from the repository's root (scripts/check):
  // eslint -c verifier/eslint.config.js src/xlshuffle/sheets/js tests/sheets
  {
    files: ["src/xlshuffle/sheets/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { Utilities: "readonly", SpreadsheetApp: "readonly" },
    },
  },
  {
    // its top-level functions are what Sheets calls: custom functions and menu commands
    files: ["src/xlshuffle/sheets/js/sheets/main.js"],
    rules: {
      "no-unused-vars": ["error", { varsIgnorePattern: "^(?:[A-Z]+|onOpen|xlshuffle[A-Z]\\w*)$" }],
    },
  },
];
