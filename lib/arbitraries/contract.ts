import { ajv, type Contract } from '../contract/index.ts';

/** A predicate that says whether a value is valid for an operation's parameter, by the contract's schema. */
export function parameterCheck(
  contract: Contract,
  operationId: string,
  name: string,
): (value: string) => boolean {
  const param = contract.operation(operationId).parameters.find((p) => p.name === name);
  if (!param?.schema) throw new Error(`${operationId} has no parameter ${name} with a schema`);
  const validate = ajv.compile(param.schema);
  return (value) => validate(value);
}
