#include "sandbox/internal/responses.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace balcao::sandbox::internal {

Lang LangOf(const HttpRequest& request) {
  std::string language(request.Header("accept-language"));
  std::transform(language.begin(), language.end(), language.begin(), [](unsigned char c) { return std::tolower(c); });
  return language.rfind("pt-br", 0) == 0 ? Lang::kPtBr : Lang::kEnUs;
}

HttpResponse JsonResponse(int status, const Json& body) {
  HttpResponse res;
  res.status = status;
  res.body = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  return res;
}

HttpResponse ErrorResponse(int status, const Problems& problems, Lang lang) {
  Json errors = Json::array();
  for (const auto& p : problems) errors.push_back({{"code", p.code}, {"message", lang == Lang::kPtBr ? p.pt : p.en}});
  return JsonResponse(status, {{"errors", errors}});
}

HttpResponse InternalErrorResponse(const Status& status) {
  std::fprintf(stderr, "sandbox: %s\n", status.ToString().c_str());
  return JsonResponse(500,
                      {{"errors", {{{"code", "internalServerError"}, {"message", "Houston, we have a problem."}}}}});
}

HttpResponse RefusalResponse(const http::Refusal& refusal) {
  const std::string limit = http::DescribeBytes(refusal.limit);
  switch (refusal.status) {
    case 413:
      return ErrorResponse(413,
                           {MakeProblem("payloadTooLarge", "Request body exceeds " + limit + ".",
                                        "O corpo da requisição excede " + limit + ".")},
                           Lang::kEnUs);
    case 431:
      return ErrorResponse(431,
                           {MakeProblem("headersTooLarge", "Request headers exceed " + limit + ".",
                                        "Os cabeçalhos da requisição excedem " + limit + ".")},
                           Lang::kEnUs);
    case 500:
      return InternalErrorResponse(InternalError("request failed: " + refusal.rule));
    default:
      return ErrorResponse(refusal.status,
                           {MakeProblem("invalidRequest", "Malformed HTTP request.", "Requisição HTTP malformada.")},
                           Lang::kEnUs);
  }
}

std::optional<Json> ParseBody(std::string_view body, Problems& problems) {
  // nlohmann's parser is iterative, but deep documents are still no valid API input;
  // refuse them before parsing (1,000-deep nesting is a bad-input test case).
  int depth = 0, max_depth = 0;
  bool in_string = false, escape = false;
  for (char c : body) {
    if (in_string) {
      if (escape)
        escape = false;
      else if (c == '\\')
        escape = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[')
      max_depth = std::max(max_depth, ++depth);
    else if (c == '}' || c == ']')
      --depth;
  }
  Json parsed = max_depth > 32 ? Json(Json::value_t::discarded) : Json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !(parsed.is_object() || parsed.is_array())) {
    problems.push_back(MakeProblem(
        std::string(kInvalidJson),
        max_depth > 32 ? "Body nests deeper than 32 levels." : "Body is not a valid JSON object.",
        max_depth > 32 ? "O corpo tem mais de 32 níveis de aninhamento." : "O corpo não é um objeto JSON válido."));
    return std::nullopt;
  }
  return parsed;
}

}  // namespace balcao::sandbox::internal
