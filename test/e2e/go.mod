module github.com/tablesettle/tablesettle/test/e2e

go 1.26.8

require (
	github.com/oapi-codegen/runtime v1.8.0
	github.com/tablesettle/tablesettle v0.0.0
)

require (
	github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
	github.com/danielgtaylor/huma/v2 v2.37.2 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
)

replace github.com/tablesettle/tablesettle => ../..
