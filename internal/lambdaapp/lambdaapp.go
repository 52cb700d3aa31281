// Package lambdaapp runs an operation group of internal/httpapi as an AWS
// Lambda function behind API Gateway (HTTP API, payload format 2.0): it
// reads the configuration, builds the http.Handler once with httpapi.New
// and adapts API Gateway events to it with aws-lambda-go-api-proxy.
package lambdaapp

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/danielgtaylor/huma/v2"

	"github.com/tablesettle/tablesettle/internal/httpapi"
)

// Handler is what a function hands to lambda.Start: one API Gateway HTTP
// API (2.0) event in, one response out. It never returns an error: every
// failure is an HTTP problem response, so API Gateway never answers with
// its own opaque 500.
type Handler func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// Logger returns the JSON logger on w at the level named by LOG_LEVEL
// (debug, info, warn, error; info when empty or unknown).
func Logger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(level))); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}))
}

// Deps returns the dependencies every function shares, read from the
// environment (LOG_LEVEL, TABLESETTLE_IAM_PRINCIPALS: see IAMAccess).
// Stores are added by the function that needs them (see functions/pools).
func Deps(getenv func(string) string) httpapi.Deps {
	return httpapi.Deps{Logger: Logger(os.Stdout, getenv("LOG_LEVEL")), Access: IAMAccess(getenv(IAMPrincipalsEnv))}
}

// New builds the handler of one operation group. Call it once, in main,
// outside the handler: everything it builds is reused by every event.
func New(deps httpapi.Deps, group httpapi.Group) Handler {
	h, _ := httpapi.New(deps, group)
	logger := deps.Logger
	if logger == nil {
		logger = Logger(os.Stdout, "")
	}
	return Adapt(h, logger)
}

// Adapt turns an http.Handler built by httpapi.New into a Lambda handler
// for API Gateway HTTP API (2.0) events. API Gateway's
// requestContext.requestId becomes the request id of the response header
// and the logs.
func Adapt(h http.Handler, logger *slog.Logger) Handler {
	withID := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rc, ok := core.GetAPIGatewayV2ContextFromContext(r.Context()); ok && rc.RequestID != "" {
			r = r.WithContext(httpapi.WithRequestID(r.Context(), rc.RequestID))
		}
		h.ServeHTTP(w, r)
	})
	adapter := httpadapter.NewV2(withID)
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		id := ev.RequestContext.RequestID
		if ev.IsBase64Encoded {
			if _, err := base64.StdEncoding.DecodeString(ev.Body); err != nil {
				logger.Info("request", "request_id", id, "method", ev.RequestContext.HTTP.Method, "path", ev.RawPath,
					"status", http.StatusBadRequest, "reason", "body is not valid base64")
				return problem(http.StatusBadRequest, id, "the request body is marked base64-encoded but is not valid base64",
					&huma.ErrorDetail{Location: "body", Message: "not valid base64 (RFC 4648, standard alphabet)"}), nil
			}
		}
		if _, err := url.PathUnescape(ev.RawPath); err != nil {
			logger.Info("request", "request_id", id, "method", ev.RequestContext.HTTP.Method, "status", http.StatusBadRequest,
				"reason", "path has a bad % escape")
			return problem(http.StatusBadRequest, id, "the request path has a % not followed by two hex digits",
				&huma.ErrorDetail{Location: "path", Message: "a bad % escape (RFC 3986 percent-encoding)"}), nil
		}
		resp, err := adapter.ProxyWithContext(ctx, ev)
		if err != nil {
			logger.Error("event not adapted", "request_id", id, "err", err.Error())
			return problem(http.StatusInternalServerError, id, "the service could not answer this request; quote request id "+id+" when reporting it"), nil
		}
		return resp, nil
	}
}

// problem is an RFC 9457 response made outside the http.Handler (the
// event could not become an http.Request).
func problem(status int, id, detail string, errs ...*huma.ErrorDetail) events.APIGatewayV2HTTPResponse {
	body := httpapi.ProblemJSON(status, detail, errs...)
	h := map[string]string{"Content-Type": "application/problem+json"}
	if id != "" {
		h[httpapi.RequestIDHeader] = id
	}
	return events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: h, Body: string(body)}
}
