package lambdaapp

import (
	"net/http"

	"github.com/awslabs/aws-lambda-go-api-proxy/core"

	"github.com/tablesettle/tablesettle/internal/auth"
	"github.com/tablesettle/tablesettle/internal/fault"
	"github.com/tablesettle/tablesettle/internal/httpapi"
	"github.com/tablesettle/tablesettle/internal/principal"
)

// IAMPrincipalsEnv names the environment variable that maps IAM roles to
// principals: a JSON array of {"arn", "roles", "tables"} (auth.IAMEntry),
// written by the CDK stack from the roles it creates.
const IAMPrincipalsEnv = "TABLESETTLE_IAM_PRINCIPALS"

// IAMAccess is the functions' authentication: API Gateway's IAM authorizer
// has checked the caller's SigV4 signature and names the caller in
// requestContext.authorizer.iam.userArn; mapping (IAMPrincipalsEnv's
// value) gives that ARN its roles and tables. Every operation needs an
// identity, the stateless ones included. A mapping that does not parse
// refuses every request with 503 (and logs why) rather than serve with
// no roles or the wrong ones.
func IAMAccess(mapping string) *httpapi.Access {
	m, err := auth.ParseIAM(mapping)
	return &httpapi.Access{Authenticator: iamAuthenticator{m: m, err: err}}
}

type iamAuthenticator struct {
	m   *auth.IAM
	err error
}

func (iamAuthenticator) Challenge() string { return `AWS4-HMAC-SHA256 realm="tablesettle"` }

func (a iamAuthenticator) Authenticate(r *http.Request) (*principal.Principal, error) {
	if a.err != nil {
		return nil, fault.Wrap(fault.Unavailable, a.err, IAMPrincipalsEnv+" is not valid")
	}
	rc, ok := core.GetAPIGatewayV2ContextFromContext(r.Context())
	if !ok || rc.Authorizer == nil || rc.Authorizer.IAM == nil || rc.Authorizer.IAM.UserARN == "" {
		return nil, nil
	}
	return a.m.Principal(rc.Authorizer.IAM.UserARN), nil
}
