// Typed documents from the server's exported schema: a schema change that breaks a query fails `npm run build`.
import type { CodegenConfig } from '@graphql-codegen/cli'

const config: CodegenConfig = {
  schema: '../schema.graphql',
  documents: ['src/**/*.ts', 'src/**/*.vue', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    './src/gql/': {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', Date: 'string', JSON: 'unknown', ID: 'string' },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
}

export default config
