// valibot schemas as Fastify route schemas: typed requests (ValibotTypeProvider), validation with
// the schema's own messages, and replies serialised by fast-json-stringify from the same schema
// (so fields a reply schema does not name, such as password hashes, never leave the server).
import { toJsonSchema } from '@valibot/to-json-schema'
import fastJson from 'fast-json-stringify'
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyTypeProvider } from 'fastify'
import * as v from 'valibot'
import { ErrorReply, namesAThing } from '../../contracts/common.ts'
import { invalid, notFound } from '../errors.ts'

export interface ValibotTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends v.GenericSchema ? v.InferOutput<this['schema']> : unknown
  serializer: this['schema'] extends v.GenericSchema ? v.InferInput<this['schema']> : unknown
}

export const isValibot = (schema: unknown): schema is v.GenericSchema =>
  typeof schema === 'object' &&
  schema !== null &&
  (schema as { kind?: unknown }).kind === 'schema' &&
  '~run' in schema

const partName: Record<string, string> = {
  body: 'The request body',
  querystring: 'The query string',
  params: 'The address',
  headers: 'The headers',
}

export const validatorCompiler: FastifySchemaCompiler<unknown> =
  ({ schema, httpPart }) =>
  (data) => {
    if (!isValibot(schema)) return { value: data }
    const result = v.safeParse(schema, data ?? (httpPart === 'body' ? undefined : {}))
    if (result.success) return { value: result.output }
    const issues = result.issues.map((issue) => ({
      field: v.getDotPath(issue) ?? httpPart ?? 'request',
      message: !issue.path?.length
        ? `${partName[httpPart ?? ''] ?? 'The request'} must be a JSON object with the expected fields.`
        : (missingKeyMessage(schema, issue) ?? issue.message),
    }))
    // an address that could never name the thing it asks for names nothing: as an unknown one
    if (httpPart === 'params' && namesAThing(schema)) {
      return { error: notFound(issues[0]?.message ?? 'Not found.') }
    }
    return { error: invalid(issues[0]?.message ?? 'Invalid request.', issues) }
  }

/**
 * valibot reports a missing key with a generic message; the key's own schema knows the words
 * for "required" (e.g. 'Password is required.'), so ask it what it says about undefined.
 */
export function missingKeyMessage(root: v.GenericSchema, issue: v.BaseIssue<unknown>): string | undefined {
  if (issue.type !== 'object' || issue.input !== undefined || !issue.path) return undefined
  type Node = { entries?: Record<string, unknown>; item?: unknown; wrapped?: unknown }
  const unwrap = (node: unknown): Node | undefined => {
    let current = node as Node | undefined
    while (current?.wrapped) current = current.wrapped as Node
    return current
  }
  let schema: Node | undefined = unwrap(root)
  for (const item of issue.path) {
    schema = unwrap(typeof item.key === 'number' ? schema?.item : schema?.entries?.[String(item.key)])
    if (!schema) return undefined
  }
  if (!isValibot(schema)) return undefined
  const own = v.safeParse(schema, undefined)
  return own.success ? undefined : own.issues[0]?.message
}

/** A schema's issues as the API reports them: the field's dot path and a message for people. */
export const issuesOf = (schema: v.GenericSchema, issues: v.BaseIssue<unknown>[]) =>
  issues.map((issue) => ({
    field: v.getDotPath(issue) ?? 'request',
    message: missingKeyMessage(schema, issue) ?? issue.message,
  }))

export const toJson = (schema: v.GenericSchema) =>
  toJsonSchema(schema, { errorMode: 'ignore', typeMode: 'input' }) as Record<string, unknown>

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) =>
  isValibot(schema) ? fastJson(toJson(schema) as unknown as Parameters<typeof fastJson>[0]) : JSON.stringify

/** A route's replies: the given ones plus the error reply every route may send. */
export const replies = <R extends Record<number, v.GenericSchema>>(ok: R) =>
  ({ ...ok, '4xx': ErrorReply, '5xx': ErrorReply }) as R & {
    '4xx': typeof ErrorReply
    '5xx': typeof ErrorReply
  }
