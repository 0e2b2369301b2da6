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
    const issues = result.issues.slice(0, MAX_ISSUES).map((issue) => {
      const field = v.getDotPath(issue) ?? httpPart ?? 'request'
      return {
        field,
        message: !issue.path?.length
          ? // a check of the whole body (two fields that go together) has its own words
            issue.kind === 'validation' && !VALIBOT_WORDS.test(issue.message)
            ? issue.message
            : `${partName[httpPart ?? ''] ?? 'The request'} must be a JSON object with the expected fields.`
          : (missingKeyMessage(schema, issue) ?? wordsFor(issue, field)),
      }
    })
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
  issues.slice(0, MAX_ISSUES).map((issue) => {
    const field = v.getDotPath(issue) ?? 'request'
    return { field, message: missingKeyMessage(schema, issue) ?? wordsFor(issue, field) }
  })

/**
 * The issues a refusal lists, at most: a form shows each of its fields' (a few), and a body of
 * 100,000 bad seats is not answered with 500,000 issues (a reply many times its request's size).
 */
export const MAX_ISSUES = 20

/** valibot's own words, for a check given no message of its own: "Invalid type: Expected … but received …" */
const VALIBOT_WORDS = /^Invalid [\w ]+: (?:Expected|Received) /

/** what a value of valibot's types must be, in people's words */
const mustBe: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  strict_object: 'an object',
  loose_object: 'an object',
  array: 'a list',
  tuple: 'a list',
  integer: 'a whole number',
  finite: 'a number',
  safe_integer: 'a whole number',
  iso_timestamp: 'a date and time (ISO 8601)',
  iso_date: 'a date (YYYY-MM-DD)',
  email: 'an email address',
  url: 'an address (URL)',
}

/**
 * An issue's message for people: the schema's own, or, where the schema gave none, what the field
 * must be, naming it. Never the value received: it may be megabytes, and it is the caller's own.
 */
export function wordsFor(issue: v.BaseIssue<unknown>, field: string): string {
  if (!VALIBOT_WORDS.test(issue.message)) return issue.message
  const requirement = (issue as { requirement?: unknown }).requirement
  const limit =
    typeof requirement === 'number' || typeof requirement === 'bigint' ? String(requirement) : null
  switch (issue.type) {
    case 'min_value':
      if (limit !== null) return `${field} must be at least ${limit}.`
      break
    case 'max_value':
      if (limit !== null) return `${field} must be at most ${limit}.`
      break
    case 'min_length':
      if (limit !== null) return `${field} is too short: at least ${limit}.`
      break
    case 'max_length':
      if (limit !== null) return `${field} is too long: at most ${limit}.`
      break
    case 'picklist':
    case 'enum':
    case 'literal':
      if (issue.expected && issue.expected.length <= 200) return `${field} must be ${issue.expected}.`
      break
  }
  const words = mustBe[issue.type]
  return words ? `${field} must be ${words}.` : `${field} is not valid.`
}

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
