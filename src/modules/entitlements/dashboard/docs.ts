/** The OpenAPI descriptions of the dashboard's company entitlement routes (docs/customers.md#entitlements-and-overrides). */

export const ENTITLEMENTS = `What the company gets, feature by feature: \`features\` is exactly what GET /entitlements answers for the company
(the same rules, computed by the same code from the same in-memory state: access, reason, where the grant comes from, usage against a
quota's limit in its period, credits per use and the spendable credit balance), and \`overrides\` lists the company's own overrides.
The path \`id\` is our \`comp_…\` id or your id for the company; 404 \`{error}\` for an unknown company (GET /entitlements lists every
feature off instead).`;

export const CHECK = `Exactly GET /check's answer for this company and \`feature\` (featureKey, eventKey or cflag_ id; 404 when unknown), with
\`quantity\` as there. 404 \`{error}\` for an unknown company.`;

export const SET_OVERRIDE = `Sets the company's override of one feature, replacing any previous one; from then on it applies instead of what the
company's plan and add-ons grant (GET /check answers with \`source: "override"\`). The body is a plan entitlement's (PUT
/dashboard/plans/{id}/entitlements/{feature}), checked the same way: the grant's fields fit its kind (400 with \`details\`), and the kind
fits the feature's type (\`quota\` and \`credit\` need an \`event\` feature, \`trait\` a \`trait\` feature). \`{kind: "boolean", enabled: false}\`
turns a feature off for the company whatever its plan grants. Every instance applies it at once (the company's change notice at commit).
Recorded in the audit log as \`override.set\`. 404 for an unknown company or feature.`;

export const REMOVE_OVERRIDE = `Removes the company's override of one feature: what its plan and add-ons grant applies again. Answers what was
removed; 404 when the company has no override of the feature. Recorded in the audit log as \`override.remove\`.`;

export const COMPANY = `One company as GET /companies lists it: its ids, name, email, wallet, traits, plan and add-ons and billing anchor. The path
\`id\` is our \`comp_…\` id or your id for the company; 404 \`{error}\` for an unknown one or one of another team or environment.`;
