// The rules the code review kept finding, held by `npm run lint` (part of `npm test`). Formatting
// is Prettier's (`.prettierrc.json`); nothing here is about layout.
import comments from "@eslint-community/eslint-plugin-eslint-comments/configs";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "sdk/**", "packages/*/dist/**", "examples/**/node_modules/**", "**/*.js", "**/*.mjs", "**/*.cjs"] },
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.base, comments.recommended],
    languageOptions: { parserOptions: { project: "./tsconfig.test.json", tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its error: await it, or mark it `void` where that is meant.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "no-control-regex": "error",
      // A cast the compiler already agrees with says nothing.
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression > TSAsExpression[typeAnnotation.type='TSUnknownKeyword']",
          message: "`as unknown as` throws the type away: find the type, or say why with `// eslint-disable-next-line no-restricted-syntax -- <why>`.",
        },
      ],
      // Every exception says why.
      "@eslint-community/eslint-comments/require-description": ["error", { ignore: [] }],
      "@eslint-community/eslint-comments/no-unused-disable": "error",
    },
  },
);
