import type { ValidateFunction } from 'ajv';
import { ajv, type Contract } from '../contract/index.ts';

/** Validators by parameter schema: each compiled once per process, however often it is asked for. */
const compiled = new WeakMap<object, ValidateFunction>();

/** A predicate that says whether a value is valid for an operation's parameter, by the contract's schema. */
export function parameterCheck(
  contract: Contract,
  operationId: string,
  name: string,
): (value: string) => boolean {
  const param = contract.operation(operationId).parameters.find((p) => p.name === name);
  if (!param?.schema) throw new Error(`${operationId} has no parameter ${name} with a schema`);
  let validate = compiled.get(param.schema);
  if (!validate) {
    validate = ajv.compile(param.schema);
    compiled.set(param.schema, validate);
  }
  const check = validate;
  return (value) => check(value) === true;
}
