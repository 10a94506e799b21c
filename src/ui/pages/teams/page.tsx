/** The operator's teams: each with their roles there, the current one marked, and the switch (a sign-in there). */
import { Field, FormError, ListTable, Notice, Select, Shell, when } from "../../layout";
import type { PageSession } from "../../session";

export interface TeamView {
  id: string;
  name: string;
  roles: string[];
  current: boolean;
  joinedAt: string;
}

export interface TeamsProps {
  session: PageSession;
  teams: TeamView[];
  switched?: boolean;
  /** a switch the API refused: the team chosen (kept) and its message */
  refused?: { teamId: string; error: string | null };
}

export const PATH = "/dashboard/teams";

const teamStatus = (team: TeamView): string => (team.current ? "Current team" : "");

export function TeamsPage({ session, teams, switched, refused }: TeamsProps) {
  const others = teams.filter((team) => !team.current);
  return (
    <Shell title="Your teams" session={session} path={PATH}>
      <Notice text={switched ? `You are now signed in to ${session.team.name}, in development.` : null} />
      <ListTable
        title="Teams you are a member of"
        empty="No teams."
        columns={["Team", "Team id", "Your roles", "Joined", "Status"]}
        rows={teams.map((team) => (
          <tr>
            <td safe>{team.name}</td>
            <td>
              <code safe>{team.id}</code>
            </td>
            <td safe>{team.roles.join(", ")}</td>
            <td safe>{when(team.joinedAt)}</td>
            <td safe>{teamStatus(team)}</td>
          </tr>
        ))}
      />
      {others.length === 0 ? (
        ""
      ) : (
        <section aria-labelledby="switch-title">
          <h2 id="switch-title">Switch team</h2>
          <p class="hint">
            Switching signs you in to the other team with your password, with the roles you hold there, and ends this session. A one-time link from
            the CLI's sign-in-link names the team too.
          </p>
          <FormError message={refused?.error ?? null} />
          <form method="post" action={`${PATH}/switch`} class="stack">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <Select name="teamId" label="Team" options={others.map((team) => ({ value: team.id, label: team.name }))} value={refused?.teamId} />
            <Field name="password" label="Your password" type="password" autocomplete="current-password" required />
            <button type="submit" class="primary">
              Switch team
            </button>
          </form>
        </section>
      )}
    </Shell>
  );
}
