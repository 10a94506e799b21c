/** The operator's teams: each with their roles there, the current one marked, a switch button for the others. */
import { ListTable, Shell, when } from "../../layout";
import type { PageSession } from "../../session";

export interface TeamView {
  id: string;
  name: string;
  roles: string[];
  current: boolean;
  joinedAt: string;
}

export const PATH = "/dashboard/teams";

export function TeamsPage({ session, teams, switched }: { session: PageSession; teams: TeamView[]; switched?: boolean }) {
  const canSwitch = session.may("POST", "/dashboard/session/team");
  const notice = `You are now signed in to ${session.team.name}, in development.`;
  return (
    <Shell title="Your teams" session={session} path={PATH}>
      {switched ? (
        <p class="notice" role="status" safe>
          {notice}
        </p>
      ) : (
        ""
      )}
      <p class="hint">
        Switching ends this session and starts one in the other team, with the roles you hold there. No password is asked: you are signed in, and your
        membership is the grant.
      </p>
      <ListTable
        title="Teams you are a member of"
        empty="No teams."
        columns={["Team", "Team id", "Your roles", "Joined", "Switch"]}
        rows={teams.map((team) => (
          <tr>
            <td safe>{team.name}</td>
            <td>
              <code safe>{team.id}</code>
            </td>
            <td safe>{team.roles.join(", ")}</td>
            <td safe>{when(team.joinedAt)}</td>
            <td>
              {team.current ? (
                <strong>Current team</strong>
              ) : canSwitch ? (
                <form method="post" action={`${PATH}/switch`}>
                  <input type="hidden" name="csrf" value={session.csrfToken} />
                  <input type="hidden" name="teamId" value={team.id} />
                  <button type="submit">
                    Switch<span class="visually-hidden" safe>{` to ${team.name}`}</span>
                  </button>
                </form>
              ) : (
                ""
              )}
            </td>
          </tr>
        ))}
      />
    </Shell>
  );
}
